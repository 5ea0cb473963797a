/**
 * Delivery core: the engine. Claims a kind's due items (`FOR UPDATE SKIP LOCKED`, then a lease in
 * `locked_until` so a crashed worker's claims simply expire and are retried: at-least-once), sends
 * them through the kind's sink with bounded concurrency within a time budget, decides what the
 * answer means for the item (retry, exhausted, destination off), and records each attempt and the
 * next state in one statement. Any number of instances may run it at once; they coordinate only
 * by row locks.
 */
import type { Database } from "../db/client.ts";
import { log, errorFields } from "../log.ts";
import { observeDeliveryAttempt, type AttemptOutcome } from "../metrics.ts";
import { disableDestination } from "./disable.ts";
import type { Claimed, DeliveryKind, Sent } from "./kind.ts";
import { recorder, type Attempted } from "./record.ts";

export interface DeliverOptions {
  /** Stop claiming after this long (claimed work is still finished). */
  budgetMs?: number;
  concurrency?: number;
  batchSize?: number;
  /** How long a claim is ours; must exceed the time one attempt can take. */
  leaseMs?: number;
  /**
   * Aborted when the process stops: claim nothing more, hand back what was claimed but not
   * started, finish and record the attempts in flight.
   */
  signal?: AbortSignal;
}

export interface DeliverySummary {
  claimed: number;
  succeeded: number;
  failed: number;
  exhausted: number;
  disabled: number;
}

type Outcome = AttemptOutcome | "cancelled";

function observe(kind: Pick<DeliveryKind, "series">, outcome: AttemptOutcome, durationMs: number) {
  if (kind.series) observeDeliveryAttempt(kind.series, outcome, durationMs);
}

async function attempt<Row extends object, Result extends Sent>(
  db: Database,
  kind: DeliveryKind<Row, Result>,
  item: Claimed & Row,
  record: (entry: Attempted) => Promise<void>,
  sendAt: number,
): Promise<Outcome> {
  if (!item.enabled) {
    await db.sql.query(kind.sql.cancel, [item.id, kind.destination.disabledError]);
    return "cancelled";
  }
  // A paced destination's slot (within PACE_LOOKAHEAD_MS of the claim): the rate holds at the receiver.
  const wait = sendAt - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const startedAt = new Date();
  const sent = await kind.sink.send(item);
  const durationMs = Date.now() - startedAt.getTime();
  const number = item.attempt_count + 1;
  const verdict = kind.sink.classify(sent);

  if (verdict.outcome === "gone") {
    observe(kind, "disabled", durationMs);
    await disableDestination(db, kind, item, verdict.reason, { number, startedAt, durationMs, sent });
    return "disabled";
  }

  let outcome: Attempted["outcome"] = "succeeded";
  let next: Date | null = null;
  let error: string | null = null;
  if (verdict.outcome === "failed") {
    const delay = verdict.retryAfter ?? kind.retrySchedule()[number - 1];
    outcome = delay === undefined ? "exhausted" : "failed";
    next = delay === undefined ? null : new Date(Date.now() + delay * 1000);
    error = verdict.error;
  }
  observe(kind, outcome, durationMs);
  await record({ id: item.id, number, startedAt, durationMs, sent, error, next, outcome, destinationId: item.destination_id });

  const { failingDaysBeforeDisable: days } = kind.destination;
  if (outcome !== "succeeded" && item.failing_since && Date.now() - item.failing_since.getTime() >= days * 86_400_000) {
    const reason = `Every delivery failed for ${days} days (since ${item.failing_since.toISOString()})`;
    await disableDestination(db, kind, item, reason);
    return "disabled";
  }
  return outcome;
}

/**
 * Delivers what is due until nothing is left or the budget is spent. The next batch is claimed
 * while the current one is still being sent (when the queue runs below `concurrency`), so the
 * senders do not wait for the claim; a claimed row left waiting past half its lease is dropped
 * unsent (the lease expires and it is claimed again), never sent late under someone else's claim.
 */
export async function deliverDue<Row extends object, Result extends Sent>(
  db: Database,
  kind: DeliveryKind<Row, Result>,
  options: DeliverOptions = {},
): Promise<DeliverySummary> {
  const { budgetMs = 10_000, concurrency = 50, batchSize = 100, leaseMs = 60_000, signal } = options;
  const deadline = Date.now() + budgetMs;
  const summary: DeliverySummary = { claimed: 0, succeeded: 0, failed: 0, exhausted: 0, disabled: 0 };
  const record = recorder(db, kind);
  // `sendAt`: the item's slot on this process's clock (when the claim came back + its wait_ms).
  const queue: { item: Claimed & Row; claimedAt: number; sendAt: number }[] = [];
  let drained = false;
  let claiming: Promise<void> | null = null;

  const claim = () =>
    (claiming ??= (async () => {
      const claimedAt = Date.now();
      try {
        const rows = await db.sql.query<Claimed & Row>(kind.sql.claim, [batchSize, leaseMs]);
        summary.claimed += rows.length;
        const receivedAt = Date.now();
        for (const item of rows) queue.push({ item, claimedAt, sendAt: receivedAt + item.wait_ms });
        if (rows.length === 0) drained = true;
      } finally {
        claiming = null;
      }
    })());

  const claimInFlight = (): Promise<void> | null => claiming;

  const next = async (): Promise<(typeof queue)[number] | undefined> => {
    for (;;) {
      if (signal?.aborted) return undefined;
      const queued = queue.shift();
      if (queue.length < concurrency && !drained && !claiming && Date.now() < deadline) void claim().catch(() => undefined);
      if (queued) {
        if (Date.now() - queued.claimedAt < leaseMs / 2) return queued;
        continue;
      }
      if (drained) return undefined;
      if (Date.now() >= deadline) {
        // A claim started before the deadline: what it took is ours to send.
        if (!claiming) return undefined;
        await claiming;
        continue;
      }
      await claim();
    }
  };
  const worker = async () => {
    for (let queued = await next(); queued; queued = await next()) {
      const { item, sendAt } = queued;
      try {
        const outcome = await attempt(db, kind, item, record, sendAt);
        if (outcome !== "cancelled") summary[outcome] += 1;
      } catch (error) {
        // Left claimed: the lease expires and another run retries it.
        log.error(`${kind.name} delivery failed to record`, { delivery_id: item.id, ...errorFields(error) });
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (signal?.aborted) {
    await claimInFlight()?.catch(() => undefined);
    const released = await releaseClaims(
      db,
      kind,
      queue.splice(0).map((queued) => queued.item.id),
    );
    if (released) log.info(`stopping: handed back claimed ${kind.name} deliveries`, { released });
  }
  return summary;
}

/**
 * Hands claimed, unsent items back to the queue (a stopping instance) and wakes every dispatcher
 * (pg_notify, on commit), so another instance sends them now rather than when the lease runs out.
 * Returns how many were released.
 */
async function releaseClaims(db: Database, kind: Pick<DeliveryKind, "sql">, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  const rows = await db.sql.query<{ n: number }>(kind.sql.release, [ids]);
  return rows[0]?.n ?? 0;
}

/** When the kind's earliest waiting item falls due (for the dispatcher's timer), or null. */
export async function nextDueAt(db: Database, kind: Pick<DeliveryKind, "sql">): Promise<Date | null> {
  const rows = await db.sql.query<{ at: Date }>(kind.sql.nextDue);
  return rows[0]?.at ?? null;
}
