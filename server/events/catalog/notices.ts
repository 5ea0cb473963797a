/**
 * The catalog's operational notices about a webhook (server/webhooks/notices.ts): a delivery that
 * ran out of retries, a webhook failing for 24 h, and one the service turned off. Delivered to the
 * tenant's other webhooks that subscribe, never to the webhook they are about.
 */
import { z } from "zod";
import { details, iso, kind, EXAMPLE_ID } from "./define.ts";

const url = z.string().meta({ description: "The webhook's URL." });
const failingSince = iso().nullable().meta({ description: "When its current run of failed attempts began, or null." });

export const noticeKinds = {
  "webhook.delivery_exhausted": kind({
    group: "webhook",
    description:
      "A delivery to the webhook (the target) failed its last retry: it will not be sent again unless retried or recovered. " +
      "Not emitted for deliveries of these notices themselves.",
    target: "webhook",
    details: details({
      url,
      delivery_id: z.string(),
      event_id: z.string().meta({ description: "The event the delivery carried." }),
      event_type: z.string(),
      attempts: z.number().int(),
      last_response_status: z.number().int().nullable().meta({ description: "The endpoint's last answer code, or null (no answer)." }),
      last_error: z.string().nullable(),
    }),
    example: {
      url: "https://hooks.acme.com/cp",
      delivery_id: EXAMPLE_ID,
      event_id: "6a1d3c5e-7f2b-4c8d-9e0a-1b2c3d4e5f60",
      event_type: "user.created",
      attempts: 8,
      last_response_status: 503,
      last_error: "HTTP 503",
    },
  }),
  "webhook.failing": kind({
    group: "webhook",
    description:
      "Every delivery to the webhook (the target) has failed for 24 hours. Emitted once per run of failures; " +
      "after 5 days of it the webhook is turned off (`webhook.auto_disabled`).",
    target: "webhook",
    details: details({
      url,
      failing_since: iso(),
      exhausted_deliveries: z.number().int().meta({ description: "Its deliveries that ran out of retries since `failing_since`." }),
    }),
    example: { url: "https://hooks.acme.com/cp", failing_since: "2026-12-05T09:00:00.000Z", exhausted_deliveries: 12 },
  }),
  "webhook.auto_disabled": kind({
    group: "webhook",
    description:
      "The service turned the webhook (the target) off: its endpoint answered 410 Gone, or every delivery failed for 5 days " +
      "(`reason`). Also recorded as `webhook.disabled`.",
    target: "webhook",
    details: details({ url, reason: z.string(), failing_since: failingSince }),
    example: {
      url: "https://hooks.acme.com/cp",
      reason: "Every delivery failed for 5 days (since 2026-12-01T09:00:00.000Z)",
      failing_since: "2026-12-01T09:00:00.000Z",
    },
  }),
};

/** The notice kinds: about a webhook, and never delivered to it (server/webhooks/outbox.ts). */
export const NOTICE_KINDS = Object.keys(noticeKinds) as (keyof typeof noticeKinds)[];
