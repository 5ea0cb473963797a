/**
 * The delivery engine. Claims due deliveries (`FOR UPDATE SKIP LOCKED`, then a lease in
 * `locked_until` so a crashed worker's claims simply expire and are retried: at-least-once), sends
 * them with bounded concurrency within a time budget, and records each attempt and the next state
 * in one statement. Any number of instances may run it at once; they coordinate only by row locks.
 */
import type { Database } from "../db/client.ts";
import { env } from "../env.ts";
import { log, errorFields } from "../log.ts";
import { sendAttempt } from "./send.ts";
import { disableWebhook } from "./disable.ts";
import { releaseClaims } from "./release.ts";
import { observeWebhookAttempt } from "../ops/metrics.ts";

const DEFAULT_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000];
const FAILING_DAYS_BEFORE_DISABLE = 5;

export interface DeliverOptions {
  /** Stop claiming after this long (claimed work is still finished). */
  budgetMs?: number;
  concurrency?: number;
  batchSize?: number;
  /** How long a claim is ours; must exceed the time one attempt can take. */
  leaseMs?: number;
  /**
   * Aborted when the process stops: claim nothing more, hand back what was claimed but not
   * started (release.ts), finish and record the attempts in flight.
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

interface Claimed {
  id: string;
  tenant_id: string;
  webhook_id: string;
  event_id: string;
  payload: string;
  attempt_count: number;
  url: string;
  enabled: boolean;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_valid: boolean | null;
  failing_since: Date | null;
}

const CLAIM = `UPDATE webhook_deliveries d SET locked_until = now() + $2 * interval '1 millisecond'
  FROM webhooks w
  WHERE d.id IN (
    SELECT id FROM webhook_deliveries
    WHERE status IN ('pending', 'failed') AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until <= now())
    ORDER BY next_attempt_at
    LIMIT $1
    FOR UPDATE SKIP LOCKED)
  AND w.id = d.webhook_id
  RETURNING d.id, d.tenant_id, d.webhook_id, d.event_id, d.payload, d.attempt_count, w.url, w.enabled, w.secret_ciphertext,
    w.previous_secret_ciphertext, w.previous_secret_expires_at > now() AS previous_valid, w.failing_since`;

// One statement for a group of attempts: the attempt rows, the deliveries' next states, and each
// webhook's failure streak (cleared by a success, started by the first failure after it; written
// only when it changes). Recording in groups makes one commit serve many deliveries.
const RECORD = `WITH r AS (
    SELECT * FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::text[], $8::timestamptz[], $9::text[], $10::uuid[])
      AS r(id, attempt, started_at, duration_ms, response_status, response_body, error, next_attempt_at, status, webhook_id)
  ), a AS (
    INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, response_status, response_body, error, next_attempt_at)
    SELECT id, attempt, started_at, duration_ms, response_status, response_body, error, next_attempt_at FROM r
    ON CONFLICT (delivery_id, attempt) DO NOTHING
  ), s AS (
    SELECT webhook_id, max(started_at) FILTER (WHERE status = 'succeeded') AS last_ok FROM r GROUP BY webhook_id
  ), f AS (
    SELECT s.webhook_id, s.last_ok,
      min(r.started_at) FILTER (WHERE r.status <> 'succeeded' AND (s.last_ok IS NULL OR r.started_at > s.last_ok)) AS first_fail
    FROM s JOIN r USING (webhook_id) GROUP BY s.webhook_id, s.last_ok
  ), w AS (
    UPDATE webhooks w SET failing_since = CASE WHEN f.last_ok IS NULL THEN coalesce(w.failing_since, f.first_fail) ELSE f.first_fail END
    FROM f
    WHERE w.id = f.webhook_id
      AND w.failing_since IS DISTINCT FROM (CASE WHEN f.last_ok IS NULL THEN coalesce(w.failing_since, f.first_fail) ELSE f.first_fail END)
  )
  UPDATE webhook_deliveries d SET status = r.status, attempt_count = r.attempt, next_attempt_at = r.next_attempt_at, locked_until = NULL,
    last_attempt_at = r.started_at, last_response_status = r.response_status, last_error = r.error, updated_at = now()
  FROM r WHERE d.id = r.id`;

interface Attempted {
  id: string;
  number: number;
  startedAt: Date;
  durationMs: number;
  status: number | null;
  body: string | null;
  error: string | null;
  next: Date | null;
  outcome: "succeeded" | "failed" | "exhausted";
  webhookId: string;
}

/**
 * Group commit: the first attempt to finish is written at once; those finishing while a write is
 * in flight are written together by the next one. Each caller learns when its own row is written.
 */
function recorder(db: Database) {
  let waiting: { entry: Attempted; done: (error?: unknown) => void }[] = [];
  let writing = false;
  const write = async (entries: Attempted[]) => {
    const column = <K extends keyof Attempted>(key: K) => entries.map((e) => e[key]);
    const values = [
      column("id"),
      column("number"),
      column("startedAt"),
      column("durationMs"),
      column("status"),
      column("body"),
      column("error"),
      column("next"),
      column("outcome"),
      column("webhookId"),
    ];
    try {
      await db.sql.query(RECORD, values);
    } catch (error) {
      // Two instances changing several webhooks' streaks in opposite orders: run it again.
      if ((error as { code?: string }).code !== "40P01") throw error;
      await db.sql.query(RECORD, values);
    }
  };
  const drain = async () => {
    writing = true;
    while (waiting.length) {
      const group = waiting;
      waiting = [];
      try {
        await write(group.map((g) => g.entry));
        for (const g of group) g.done();
      } catch (error) {
        for (const g of group) g.done(error);
      }
    }
    writing = false;
  };
  return (entry: Attempted) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ entry, done: (error) => (error ? reject(error) : resolve()) });
      if (!writing) void drain();
    });
}

export function retrySchedule(): number[] {
  return env().WEBHOOK_RETRY_SCHEDULE ?? DEFAULT_SCHEDULE_SECONDS;
}

type Outcome = "succeeded" | "failed" | "exhausted" | "disabled" | "cancelled";

async function attempt(db: Database, row: Claimed, record: (entry: Attempted) => Promise<void>): Promise<Outcome> {
  if (!row.enabled) {
    await db.sql.query(
      `UPDATE webhook_deliveries SET status = 'cancelled', next_attempt_at = NULL, locked_until = NULL, last_error = 'webhook disabled' WHERE id = $1::uuid`,
      [row.id],
    );
    return "cancelled";
  }
  const startedAt = new Date();
  const result = await sendAttempt(row);
  const durationMs = Date.now() - startedAt.getTime();
  const number = row.attempt_count + 1;
  const ok = result.status !== null && result.status >= 200 && result.status < 300;

  if (result.status === 410) {
    observeWebhookAttempt("disabled", durationMs);
    await disableWebhook(db, {
      webhookId: row.webhook_id,
      tenantId: row.tenant_id,
      reason: "The endpoint answered 410 Gone",
      attempt: { deliveryId: row.id, number, startedAt, durationMs, status: 410, body: result.body, error: null },
    });
    return "disabled";
  }

  const schedule = retrySchedule();
  let status: Attempted["outcome"] = "succeeded";
  let next: Date | null = null;
  if (!ok) {
    const delay = result.retryAfter ?? schedule[number - 1];
    status = delay === undefined ? "exhausted" : "failed";
    next = delay === undefined ? null : new Date(Date.now() + delay * 1000);
  }
  const error = ok ? null : (result.error ?? `HTTP ${result.status}`);
  observeWebhookAttempt(status, durationMs);
  await record({
    id: row.id,
    number,
    startedAt,
    durationMs,
    status: result.status,
    body: result.body,
    error,
    next,
    outcome: status,
    webhookId: row.webhook_id,
  });

  if (!ok && row.failing_since && Date.now() - row.failing_since.getTime() >= FAILING_DAYS_BEFORE_DISABLE * 86_400_000) {
    await disableWebhook(db, {
      webhookId: row.webhook_id,
      tenantId: row.tenant_id,
      reason: `Every delivery failed for ${FAILING_DAYS_BEFORE_DISABLE} days (since ${row.failing_since.toISOString()})`,
    });
    return "disabled";
  }
  return status;
}

/**
 * Delivers what is due until nothing is left or the budget is spent. The next batch is claimed
 * while the current one is still being sent (when the queue runs below `concurrency`), so the
 * senders do not wait for the claim; a claimed row left waiting past half its lease is dropped
 * unsent (the lease expires and it is claimed again), never sent late under someone else's claim.
 */
export async function deliverDue(db: Database, options: DeliverOptions = {}): Promise<DeliverySummary> {
  const { budgetMs = 10_000, concurrency = 50, batchSize = 100, leaseMs = 60_000, signal } = options;
  const deadline = Date.now() + budgetMs;
  const summary: DeliverySummary = { claimed: 0, succeeded: 0, failed: 0, exhausted: 0, disabled: 0 };
  const record = recorder(db);
  const queue: { row: Claimed; claimedAt: number }[] = [];
  let drained = false;
  let claiming: Promise<void> | null = null;

  const claim = () =>
    (claiming ??= (async () => {
      const claimedAt = Date.now();
      try {
        const rows = await db.sql.query<Claimed>(CLAIM, [batchSize, leaseMs]);
        summary.claimed += rows.length;
        for (const row of rows) queue.push({ row, claimedAt });
        if (rows.length === 0) drained = true;
      } finally {
        claiming = null;
      }
    })());

  const claimInFlight = (): Promise<void> | null => claiming;

  const next = async (): Promise<Claimed | undefined> => {
    for (;;) {
      if (signal?.aborted) return undefined;
      const item = queue.shift();
      if (queue.length < concurrency && !drained && !claiming && Date.now() < deadline) void claim().catch(() => undefined);
      if (item) {
        if (Date.now() - item.claimedAt < leaseMs / 2) return item.row;
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
    for (let row = await next(); row; row = await next()) {
      try {
        const outcome = await attempt(db, row, record);
        if (outcome !== "cancelled") summary[outcome] += 1;
      } catch (error) {
        // Left claimed: the lease expires and another run retries it.
        log.error("webhook delivery failed to record", { delivery_id: row.id, ...errorFields(error) });
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (signal?.aborted) {
    await claimInFlight()?.catch(() => undefined);
    const released = await releaseClaims(
      db,
      queue.splice(0).map((item) => item.row.id),
    );
    if (released) log.info("stopping: handed back claimed webhook deliveries", { released });
  }
  return summary;
}

/** When the earliest waiting delivery falls due (for the dispatcher's timer), or null. */
export async function nextDueAt(db: Database): Promise<Date | null> {
  const rows = await db.sql.query<{ at: Date }>(
    `SELECT next_attempt_at AS at FROM webhook_deliveries WHERE status IN ('pending', 'failed') ORDER BY next_attempt_at LIMIT 1`,
  );
  return rows[0]?.at ?? null;
}
