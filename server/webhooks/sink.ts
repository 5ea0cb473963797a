/**
 * Webhooks as a kind of delivery (server/delivery/ does the queue work): its tables, what a claim
 * reads for the signed POST (send.ts), what an answer means (2xx delivered; 410 Gone turns the
 * webhook off; anything else retried, after Retry-After when given, else by the schedule), and
 * how the webhook is turned off (disable.ts). With the entry points that start-up, the ticker,
 * the cron and the deliveries API use.
 */
import type { Database } from "../db/client.ts";
import { env } from "../env.ts";
import { startDispatcher, wakeDispatcher } from "../delivery/dispatcher.ts";
import { deliverDue, type DeliverOptions, type DeliverySummary } from "../delivery/engine.ts";
import { defineDeliveryKind, SUCCEEDED, type Verdict } from "../delivery/kind.ts";
import { disableWebhook } from "./disable.ts";
import { noticeExhausted } from "./notices.ts";
import { WAKE_CHANNEL } from "./outbox.ts";
import { sendAttempt, type AttemptResult, type Outgoing } from "./send.ts";

const DEFAULT_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000];
const GONE: Verdict = Object.freeze({ outcome: "gone", reason: "The endpoint answered 410 Gone" });

function classify(result: AttemptResult): Verdict {
  if (result.status === 410) return GONE;
  if (result.status !== null && result.status >= 200 && result.status < 300) return SUCCEEDED;
  return { outcome: "failed", error: result.error ?? `HTTP ${result.status}`, retryAfter: result.retryAfter };
}

export const webhookDelivery = defineDeliveryKind<Outgoing & { tenant_id: string }, AttemptResult>({
  name: "webhook",
  series: "webhook",
  queue: {
    items: "webhook_deliveries",
    attempts: "webhook_attempts",
    destinations: "webhooks",
    destinationKey: "webhook_id",
    wakeChannel: WAKE_CHANNEL,
  },
  columns: `d.tenant_id, d.event_id, d.payload, dest.url, dest.secret_ciphertext, dest.previous_secret_ciphertext,
    dest.previous_secret_expires_at > now() AS previous_valid`,
  sink: { send: sendAttempt, classify },
  retrySchedule: () => env().WEBHOOK_RETRY_SCHEDULE ?? DEFAULT_SCHEDULE_SECONDS,
  exhausted: noticeExhausted,
  destination: {
    disabledError: "webhook disabled",
    failingDaysBeforeDisable: 5,
    disable: (tx, delivery, reason) => disableWebhook(tx, { webhookId: delivery.destination_id, tenantId: delivery.tenant_id, reason }),
  },
});

/** Sends the webhook deliveries that are due, within `budgetMs` (a cron or ticker run). */
export function deliverDueWebhooks(db: Database, options: DeliverOptions = {}): Promise<DeliverySummary> {
  return deliverDue(db, webhookDelivery, options);
}

/** Starts this process's webhook dispatcher for `db` (idempotent); returns a function that stops it. */
export function startWebhookDispatcher(db: Database, options: DeliverOptions = {}): Promise<() => Promise<void>> {
  return startDispatcher(db, webhookDelivery, options);
}

/** Asks this process's webhook dispatcher (if started) to run now, e.g. after a manual retry. */
export function wakeWebhookDispatcher(db: Database): void {
  wakeDispatcher(db, webhookDelivery);
}
