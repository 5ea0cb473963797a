/**
 * audit_events is partitioned by month of `recorded_at` (when the database recorded an event),
 * while lists filter and order by the event's own `timestamp`. The two are tied one way only: a
 * timestamp may be any time in the past (an application backfilling its log), but never more than
 * TIMESTAMP_LEAD_MS after its recorded_at (CHECK audit_events_timestamp_lead, migration
 * 20261128000000_audit_timestamp_lead; appends also refuse timestamps in the future). So a lower
 * bound on `timestamp` gives one on `recorded_at`, which lets Postgres skip partitions.
 */

/** How far an event's `timestamp` may be ahead of its `recorded_at`. */
export const TIMESTAMP_LEAD_MS = 5 * 60_000;

/** The earliest `recorded_at` an event timestamped at or after `at` can have. */
export function recordedFloor(at: Date): Date {
  return new Date(at.getTime() - TIMESTAMP_LEAD_MS);
}

/** The first instant (UTC) of the month `back` months before `at`'s. */
export function monthStart(at: Date, back = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - back, 1));
}

/**
 * The condition `recorded_at >= from`, rounded down to its month (the partitions' grain, so the
 * same partitions) and written as a constant: Postgres prunes while planning, so a prepared
 * statement's generic plan is as narrow as a custom one and is kept (a placeholder would leave every
 * partition in the generic plan). Few distinct texts: one per month.
 */
export function recordedSince(from: Date): string {
  return `e.recorded_at >= '${monthStart(from).toISOString()}'::timestamptz`;
}
