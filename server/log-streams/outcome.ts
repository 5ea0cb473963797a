/**
 * What an attempt does to its stream, in one transaction that holds the claim's lease: a success
 * moves the cursor to the batch's end and clears the run of failures (a stream that was failing
 * emits `log_stream.recovered`); a failure schedules the retry (the receiver's Retry-After, else
 * the backoff) and, after 24 h of failures, marks the stream failing once (`log_stream.failing`,
 * and a mail to the tenant's admins after commit). Either way the attempt is kept in
 * log_stream_batches (the newest KEPT_BATCHES per stream). A run whose lease ran out (another
 * instance resent the batch) writes nothing.
 */
import type { SqlRunner } from "../db/sql.ts";
import { errorFields, log } from "../log.ts";
import { emitEvent, SYSTEM_ACTOR } from "../events/emit.ts";
import { presentDigest, type AuditDigest } from "../audit/index.ts";
import { KEPT_BATCHES } from "./batches.ts";
import type { ClaimedStream } from "./engine.ts";
import { mailFailing } from "./failing-mail.ts";
import { FAILING_AFTER_MS } from "./service.ts";

export interface Outcome {
  ok: boolean;
  /** Nothing in the range was of the stream's kinds: the cursor moves, nothing was sent. */
  skipped: boolean;
  status: number | null;
  body: string | null;
  error: string | null;
  retryAfter: number | null;
  durationMs: number;
}

/** Seconds before each retry of a failing batch; the last repeats (a stream never gives up). */
export const RETRY_SECONDS = [1, 5, 15, 30, 60, 120, 300];
/** The longest a receiver's Retry-After is honoured for. */
const MAX_RETRY_AFTER = 3600;

export function retryDelay(attempt: number, retryAfter: number | null): number {
  if (retryAfter !== null && retryAfter >= 0) return Math.min(retryAfter, MAX_RETRY_AFTER);
  const base = RETRY_SECONDS[Math.min(attempt - 1, RETRY_SECONDS.length - 1)]!;
  return base * (0.8 + Math.random() * 0.4);
}

/** The tenant's newest signed digest that ends at or before `upTo` (a receiver holding up to there can check it). */
export async function latestDigest(sql: SqlRunner, tenantId: string, upTo: number): Promise<AuditDigest | null> {
  const [row] = await sql.query<Parameters<typeof presentDigest>[0]>(
    `SELECT d.id, d.tenant_id, d.from_sequence, d.to_sequence, d.head_hash, d.previous_digest_hash, d.signed_at, d.kid, d.jws
       FROM audit_digests d WHERE d.tenant_id = $1::uuid AND d.to_sequence <= $2 ORDER BY d.to_sequence DESC LIMIT 1`,
    [tenantId, upTo],
    { prepare: true },
  );
  return row ? presentDigest(row) : null;
}

/**
 * With a next range ($4, $5) and the stream still enabled, the run keeps its lease and that range
 * is recorded as pending before it is sent; otherwise the lease is let go.
 */
const SUCCEEDED = `UPDATE log_streams SET cursor_sequence = $3, attempt_count = 0, failing_since = NULL, failing_notified = false,
    pending_from = CASE WHEN enabled THEN $4::bigint END, pending_to = CASE WHEN enabled THEN $5::bigint END,
    locked_until = CASE WHEN enabled AND $4::bigint IS NOT NULL THEN locked_until END,
    last_batch_at = now(), last_error = NULL, next_attempt_at = now()
  WHERE id = $1::uuid AND locked_until = $2 RETURNING locked_until IS NOT NULL AS kept`;
const FAILED = `UPDATE log_streams SET attempt_count = attempt_count + 1, failing_since = coalesce(failing_since, now()),
    last_batch_at = now(), last_error = $3, locked_until = NULL, next_attempt_at = now() + $4 * interval '1 second'
  WHERE id = $1::uuid AND locked_until = $2
  RETURNING id, failing_since, (failing_since <= now() - $5 * interval '1 millisecond' AND NOT failing_notified) AS announce`;
const BATCH = `WITH added AS (
    INSERT INTO log_stream_batches (stream_id, from_sequence, to_sequence, events, status, attempt, duration_ms, response_status, response_body, error)
    VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id
  )
  DELETE FROM log_stream_batches WHERE stream_id = $1::uuid AND id IN (
    SELECT id FROM log_stream_batches WHERE stream_id = $1::uuid ORDER BY started_at DESC, id DESC OFFSET $11)`;

/**
 * Records an attempt (see the file's comment): false when the lease was lost and nothing was
 * written; "kept" when it succeeded and `next` is now pending under the same lease (the run goes on).
 */
export async function recordOutcome(
  sql: SqlRunner,
  stream: ClaimedStream,
  range: { from: number; to: number },
  events: number,
  outcome: Outcome,
  next: { from: number; to: number } | null = null,
): Promise<boolean | "kept"> {
  let mail = false;
  const recorded = await sql.transaction(async (tx): Promise<boolean | "kept"> => {
    let kept = false;
    const target = { type: "log_stream", id: stream.id, name: stream.name };
    const detailsOf = (cursor: number) => ({ name: stream.name, type: stream.type, cursor_sequence: cursor });
    if (outcome.ok) {
      const [row] = await tx.query<{ kept: boolean }>(SUCCEEDED, [
        stream.id,
        stream.locked_until,
        range.to,
        next?.from ?? null,
        next?.to ?? null,
      ]);
      if (!row) return false;
      kept = row.kept;
      if (stream.failing_notified && stream.failing_since) {
        await emitEvent(tx, SYSTEM_ACTOR, {
          type: "log_stream.recovered",
          tenantId: stream.tenant_id,
          target,
          details: { ...detailsOf(range.to), failing_since: stream.failing_since.toISOString() },
        });
      }
    } else {
      const delay = retryDelay(stream.attempt_count + 1, outcome.retryAfter);
      const [row] = await tx.query<{ failing_since: Date; announce: boolean }>(FAILED, [
        stream.id,
        stream.locked_until,
        outcome.error ?? `HTTP ${outcome.status}`,
        delay,
        FAILING_AFTER_MS,
      ]);
      if (!row) return false;
      if (row.announce) {
        await tx.query(`UPDATE log_streams SET failing_notified = true WHERE id = $1::uuid`, [stream.id]);
        await emitEvent(tx, SYSTEM_ACTOR, {
          type: "log_stream.failing",
          tenantId: stream.tenant_id,
          target,
          details: { ...detailsOf(stream.cursor_sequence), failing_since: row.failing_since.toISOString(), last_error: outcome.error },
        });
        mail = true;
      }
    }
    if (!outcome.skipped) {
      await tx.query(BATCH, [
        stream.id,
        range.from,
        range.to,
        events,
        outcome.ok ? "succeeded" : "failed",
        stream.attempt_count + 1,
        Math.round(outcome.durationMs),
        outcome.status,
        outcome.body?.slice(0, 1024) ?? null,
        outcome.error,
        KEPT_BATCHES,
      ]);
    }
    return kept ? "kept" : true;
  });
  if (mail) mailFailing(sql, stream.id).catch((error: unknown) => log.error("log stream failing mail not sent", errorFields(error)));
  return recorded;
}
