/**
 * The log-stream engine: each stream follows its tenant's audit chain by sequence from its
 * cursor, in order, at least once. A run claims due streams in Postgres (`locked_until` is the
 * lease; `FOR UPDATE SKIP LOCKED`, so one instance sends a given batch), cuts each one's next
 * batch (up to MAX_BATCH_EVENTS events, or fewer once the oldest unsent event has waited
 * LOG_STREAM_BATCH_WAIT_MS), records its range as pending before the first attempt (a retry, by
 * any instance, resends exactly that range: an S3 object overwrites itself), sends it through the
 * stream's sink, and moves the cursor only while it still holds the lease. While full batches wait
 * (a backfill), the same claim sends the next ones for up to RUN_MS, each recorded as pending in
 * the statement that moves the cursor past the one before, its rows read while that one is sent. A
 * stream with fewer than a full batch waiting is looked at again every LOG_STREAM_POLL_MS, so a
 * batch that fills goes at once. A failure is retried
 * with backoff, or after the receiver's Retry-After; never dropped: a stream failing for 24 h is
 * announced (`log_stream.failing`, a mail to admins), keeps retrying, and resumes from its cursor.
 */
import type { Database } from "../db/client.ts";
import type { SqlRunner } from "../db/sql.ts";
import { env } from "../env.ts";
import { errorFields, log } from "../log.ts";
import { AUDIT_COLUMNS, presentEvent } from "../audit/index.ts";
import type { AuditEventRow } from "../events/types.ts";
import { observeLogStreamBatch } from "../metrics.ts";
import { subscriptionsTo } from "../events/schemas.ts";
import { openConfig } from "./config.ts";
import { latestDigest, recordOutcome, type Outcome } from "./outcome.ts";
import { MAX_BATCH_EVENTS, type LogStreamType } from "./schemas.ts";
import { sinkFor } from "./sinks/index.ts";
import type { StreamBatch } from "./sinks/types.ts";

/** A claim's lease: longer than a batch's deadline, so a live sender never loses it mid-batch. */
export const LEASE_SECONDS = 60;
export const BATCH_TIMEOUT_MS = 30_000;

export interface ClaimedStream {
  id: string;
  tenant_id: string;
  type: LogStreamType;
  config: unknown;
  secrets_ciphertext: string | null;
  event_types: string[];
  cursor_sequence: number;
  pending_from: number | null;
  pending_to: number | null;
  attempt_count: number;
  failing_since: Date | null;
  failing_notified: boolean;
  name: string;
  /** The lease this claim holds: every write of the run is conditional on it. */
  locked_until: Date;
  head: number;
}

const CLAIM = `WITH due AS (
    SELECT s.id FROM log_streams s JOIN audit_chains c ON c.chain_id = s.tenant_id
    WHERE s.enabled AND s.next_attempt_at <= now() AND (s.locked_until IS NULL OR s.locked_until < now())
      AND (s.pending_to IS NOT NULL OR c.sequence > s.cursor_sequence)
    ORDER BY s.next_attempt_at LIMIT $1
    FOR UPDATE OF s SKIP LOCKED
  )
  UPDATE log_streams s SET locked_until = clock_timestamp() + $2 * interval '1 second'
  FROM due WHERE s.id = due.id
  RETURNING s.id, s.tenant_id, s.type, s.config, s.secrets_ciphertext, s.event_types, s.cursor_sequence::float8 AS cursor_sequence,
    s.pending_from::float8 AS pending_from, s.pending_to::float8 AS pending_to, s.attempt_count, s.failing_since, s.failing_notified,
    s.name, s.locked_until, (SELECT c.sequence::float8 FROM audit_chains c WHERE c.chain_id = s.tenant_id) AS head`;

/** Lets a claimed stream go until `at` (nothing to send yet). */
const RELEASE = `UPDATE log_streams SET locked_until = NULL, next_attempt_at = $3 WHERE id = $1::uuid AND locked_until = $2`;
const PEND = `UPDATE log_streams SET pending_from = $3, pending_to = $4 WHERE id = $1::uuid AND locked_until = $2`;

export interface RunSummary {
  claimed: number;
  sent: number;
  events: number;
}

/** Sends each due stream's next batch (up to `concurrency` streams at once); answers what it did. */
export async function deliverDueStreams(db: Database, options: { limit?: number; signal?: AbortSignal } = {}): Promise<RunSummary> {
  const summary: RunSummary = { claimed: 0, sent: 0, events: 0 };
  const claimed = await db.sql.query<ClaimedStream>(CLAIM, [options.limit ?? 8, LEASE_SECONDS]);
  summary.claimed = claimed.length;
  await Promise.all(
    claimed.map(async (stream) => {
      try {
        const sent = await runStream(db.sql, stream, options.signal);
        if (sent !== null) {
          summary.sent += 1;
          summary.events += sent;
        }
      } catch (error) {
        log.error("log stream run failed", { stream_id: stream.id, ...errorFields(error) });
        await db.sql.query(RELEASE, [stream.id, stream.locked_until, new Date(Date.now() + 5000)]).catch(() => undefined);
      }
    }),
  );
  return summary;
}

/** The range to send next: the pending one, a full batch, or what waited long enough; null: wait until `at`. */
async function cut(sql: SqlRunner, stream: ClaimedStream): Promise<{ from: number; to: number } | { at: Date }> {
  if (stream.pending_from !== null && stream.pending_to !== null) return { from: stream.pending_from, to: stream.pending_to };
  const from = stream.cursor_sequence + 1;
  const to = Math.min(stream.head, stream.cursor_sequence + MAX_BATCH_EVENTS);
  if (to - stream.cursor_sequence >= MAX_BATCH_EVENTS) return { from, to };
  const [oldest] = await sql.query<{ recorded_at: Date }>(
    `SELECT recorded_at FROM audit_events WHERE tenant_id = $1::uuid AND sequence = $2`,
    [stream.tenant_id, from],
    { prepare: true },
  );
  const ready = oldest ? oldest.recorded_at.getTime() + env().LOG_STREAM_BATCH_WAIT_MS : 0;
  if (ready <= Date.now()) return { from, to };
  // Back at the next poll, not only when the wait is over: a batch that fills meanwhile goes at once.
  return { at: new Date(Math.min(ready, Date.now() + env().LOG_STREAM_POLL_MS)) };
}

/** Whether an event of `kind` is streamed (no `event_types`: all). */
export function streams(eventTypes: string[], kind: string): boolean {
  return !eventTypes.length || subscriptionsTo(kind).some((s) => eventTypes.includes(s));
}

/** How long one claim goes on sending a stream's full batches back to back (well within its lease). */
export const RUN_MS = 5_000;

/** A range's rows and the digest its batch carries, read in one go (so the next can be read while one is sent). */
async function readBatch(sql: SqlRunner, stream: ClaimedStream, range: { from: number; to: number }) {
  const [rows, digest] = await Promise.all([
    sql.query<AuditEventRow>(
      `SELECT ${AUDIT_COLUMNS} FROM audit_events e WHERE e.tenant_id = $1::uuid AND e.sequence BETWEEN $2 AND $3 ORDER BY e.sequence`,
      [stream.tenant_id, range.from, range.to],
      { prepare: true },
    ),
    latestDigest(sql, stream.tenant_id, range.to),
  ]);
  return { rows, digest };
}

/**
 * A claimed stream's batches: the first as cut; then, while the last one succeeded, full batches
 * remain below the head seen at the claim and RUN_MS has not passed, the next one, its rows read
 * while the previous is sent and its range recorded as pending in the same statement that moves
 * the cursor past the previous (the lease is kept across; a stream paused meanwhile stops there,
 * and so does a run told to stop: `signal`, the process shutting down).
 * Answers the events sent, or null when it waited or its first batch failed.
 */
async function runStream(sql: SqlRunner, claimed: ClaimedStream, signal?: AbortSignal): Promise<number | null> {
  const cutRange = await cut(sql, claimed);
  if ("at" in cutRange) {
    await sql.query(RELEASE, [claimed.id, claimed.locked_until, cutRange.at]);
    return null;
  }
  if (claimed.pending_from === null) await sql.query(PEND, [claimed.id, claimed.locked_until, cutRange.from, cutRange.to]);
  const until = Date.now() + RUN_MS;
  let stream = claimed;
  let range = cutRange;
  let reading = readBatch(sql, stream, range);
  let sent: number | null = null;
  for (;;) {
    const { rows, digest } = await reading;
    const events = rows.filter((row) => streams(stream.event_types, row.event_type)).map(presentEvent);
    const next =
      !signal?.aborted && Date.now() < until && range.to + MAX_BATCH_EVENTS <= stream.head
        ? { from: range.to + 1, to: range.to + MAX_BATCH_EVENTS }
        : null;
    if (next) {
      reading = readBatch(sql, stream, next);
      reading.catch(() => undefined); // awaited below unless this batch fails; its error is not this batch's
    }
    const started = Date.now();
    let outcome: Outcome;
    if (!events.length) outcome = { ok: true, skipped: true, status: null, body: null, error: null, retryAfter: null, durationMs: 0 };
    else {
      const batch: StreamBatch = {
        stream_id: stream.id,
        tenant_id: stream.tenant_id,
        from_sequence: range.from,
        to_sequence: range.to,
        events,
        digest,
        test: false,
      };
      const answer = await send(stream, batch);
      outcome = { ...answer, skipped: false, durationMs: Date.now() - started };
    }
    const recorded = await recordOutcome(sql, stream, range, events.length, outcome, next);
    observeLogStreamBatch(stream.type, outcome.ok ? "succeeded" : "failed", outcome.ok ? events.length : 0, outcome.durationMs);
    if (!recorded || !outcome.ok) return sent;
    sent = (sent ?? 0) + events.length;
    if (!next || recorded !== "kept") return sent;
    if (signal?.aborted) {
      // Stopping: the next range stays pending for whichever instance claims the stream next.
      await sql.query(RELEASE, [stream.id, stream.locked_until, new Date()]);
      return sent;
    }
    stream = {
      ...stream,
      cursor_sequence: range.to,
      pending_from: next.from,
      pending_to: next.to,
      attempt_count: 0,
      failing_since: null,
      failing_notified: false,
    };
    range = next;
  }
}

/** Sends through the stream's sink; a sink that throws (a bug) is a failed attempt, never a lost batch. */
export async function send(stream: Pick<ClaimedStream, "type" | "config" | "secrets_ciphertext" | "id">, batch: StreamBatch) {
  try {
    const config = openConfig({ config: stream.config, secretsCiphertext: stream.secrets_ciphertext });
    const sink = sinkFor(stream.type);
    return await sink(config as never, batch, { timeoutMs: BATCH_TIMEOUT_MS });
  } catch (error) {
    log.error("log stream sink threw", { stream_id: stream.id, ...errorFields(error) });
    return { ok: false, status: null, body: null, error: "internal error while sending", retryAfter: null };
  }
}
