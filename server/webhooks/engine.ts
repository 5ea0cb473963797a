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
import { observeDeliveryAttempt } from "../ops/metrics.ts";
import { recorder, type Attempted } from "./record.ts";

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
    observeDeliveryAttempt("webhook", "disabled", durationMs);
    await disableWebhook(db, {
      webhookId: row.webhook_id,
      tenantId: row.tenant_id,
      reason: "The endpoint answered 410 Gone",
      attempt: {
        deliveryId: row.id,
        number,
        startedAt,
        durationMs,
        status: 410,
        body: result.body,
        error: null,
        request: result.request,
        responseHeaders: result.responseHeaders,
      },
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
  observeDeliveryAttempt("webhook", status, durationMs);
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
    requestUrl: result.request.url,
    requestHeaders: result.request.headers,
    responseHeaders: result.responseHeaders,
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
