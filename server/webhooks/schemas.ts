import { z } from "zod";
import { pageOf, PageQuery } from "../contract/page-query.ts";
import { JsonBoolean, text } from "../contract/fields.ts";
import { EventSelection, isSubscribable, SUBSCRIBABLE } from "../events/schemas.ts";
import { OutboundUrl } from "../outbound/schemas.ts";

export const MIN_SECRET_LENGTH = 16;
export const MAX_SECRET_LENGTH = 256;
export const MAX_DESCRIPTION_LENGTH = 500;

/** The shape only: where it may point is server/outbound/url-policy.ts, applied by the service. */
export const WebhookUrl = OutboundUrl;

export const WebhookSecret = text({ error: "must be a string" })
  .min(MIN_SECRET_LENGTH, `must be at least ${MIN_SECRET_LENGTH} characters`)
  .max(MAX_SECRET_LENGTH, `must be at most ${MAX_SECRET_LENGTH} characters`)
  .refine(
    (s) => !s.startsWith("whsec_") || (/^[A-Za-z0-9+/]+={0,2}$/.test(s.slice(6)) && Buffer.from(s.slice(6), "base64").length >= 16),
    "a whsec_ secret must be whsec_ followed by at least 16 bytes in base64",
  );

const Description = text({ error: "must be a string" })
  .trim()
  .max(MAX_DESCRIPTION_LENGTH, `must be at most ${MAX_DESCRIPTION_LENGTH} characters`);

export const MAX_RATE_LIMIT_PER_SECOND = 1000;
export const WEBHOOK_ORDERINGS = ["unordered", "ordered"] as const;
export type WebhookOrdering = (typeof WEBHOOK_ORDERINGS)[number];

const RATE_PROBLEM = `must be a whole number from 1 to ${MAX_RATE_LIMIT_PER_SECOND}, or null for no limit`;

/**
 * At most this many deliveries a second to the webhook, across all instances; null: no limit. A
 * JSON number only: the REST handler turns on zod's coercion of numbers (see JsonBoolean), which
 * would read `"10"` as 10, so anything else becomes NaN first and is refused.
 */
export const RateLimitPerSecond = z
  .preprocess(
    (value) => (typeof value === "number" || value === null ? value : Number.NaN),
    z.number({ error: RATE_PROBLEM }).int(RATE_PROBLEM).min(1, RATE_PROBLEM).max(MAX_RATE_LIMIT_PER_SECOND, RATE_PROBLEM).nullable(),
  )
  .meta({
    description:
      "At most this many deliveries a second to this webhook, across all instances (1-1000); deliveries past it wait their turn " +
      "(they stay due, no attempt is made). Null: no limit.",
  });

export const WebhookOrdering = z.enum(WEBHOOK_ORDERINGS, { error: `must be one of ${WEBHOOK_ORDERINGS.join(", ")}` }).meta({
  description:
    "`ordered`: one delivery at a time, in event order, and a failing delivery holds the ones behind it until it succeeds " +
    "or ends (exhausted, cancelled). `unordered` (default): deliveries go out concurrently.",
});

/** Same cap as server/webhooks/filter.ts checks (kept here for the form: this module is pure zod). */
export const MAX_FILTER_LENGTH = 1000;
const FILTER_DOC =
  "A CEL expression over the delivered payload; only events it is true for are delivered. Variables: `id`, `tenant_id`, `created_at`, " +
  '`data` and `event` (the whole payload; the kind is `event.type`). E.g. `event.type == "user.created" && data.details.role == "admin"`. ' +
  "Checked on save (400 naming `filter`); an event it fails on (a missing key: guard with `has(...)`) is not delivered.";

export const WebhookFilter = text({ error: "must be a string" })
  .max(MAX_FILTER_LENGTH, `must be at most ${MAX_FILTER_LENGTH} characters`)
  .meta({ description: FILTER_DOC });

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed", "exhausted", "cancelled"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const Webhook = z
  .object({
    id: z.uuid(),
    tenant_id: z.uuid(),
    url: z.string(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    description: z.string().nullable(),
    secret_hint: z.string().meta({ description: "The last four characters of the signing secret." }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    disabled_reason: z.string().nullable().meta({ description: "Why the service disabled it (410, 5 days of failures), or null." }),
    failing_since: z.iso
      .datetime()
      .nullable()
      .meta({ description: "Since when every attempt has failed (24 h: `webhook.failing`; 5 days: turned off), or null." }),
    rate_limit_per_second: RateLimitPerSecond,
    ordering: WebhookOrdering,
    filter: z.string().nullable().meta({ description: "The content filter (CEL), or null: every event subscribed to." }),
    last_delivery: z
      .object({ status: z.enum(DELIVERY_STATUSES), response_status: z.number().int().nullable(), attempted_at: z.iso.datetime() })
      .nullable()
      .meta({ description: "The latest attempted delivery, or null." }),
  })
  .meta({ id: "Webhook" });
export type Webhook = z.infer<typeof Webhook>;

export const WebhookWithSecret = Webhook.extend({
  secret: z.string().meta({ description: "The signing secret. Returned only by create and rotate-secret." }),
}).meta({ id: "WebhookWithSecret" });

export const WebhookAttempt = z
  .object({
    attempt: z.number().int(),
    started_at: z.iso.datetime(),
    duration_ms: z.number().int(),
    response_status: z.number().int().nullable(),
    response_body: z.string().nullable().meta({ description: "At most 1 KiB of the response body." }),
    error: z.string().nullable().meta({ description: "e.g. `timeout`, `ssrf_refused`, `connection failed (ECONNREFUSED)`." }),
    next_attempt_at: z.iso.datetime().nullable(),
    request: z
      .object({
        url: z.string(),
        headers: z.record(z.string(), z.string()),
      })
      .nullable()
      .meta({
        description:
          "The request this attempt sent (its body is the delivery's `payload`). Signature headers are cut to their first characters (`v1,abc12…`); the secret is never shown. Null for attempts made before requests were kept.",
      }),
    response_headers: z
      .record(z.string(), z.string())
      .nullable()
      .meta({ description: "The response's headers (at most 40, values cut to 300 characters, no cookies); null without a response." }),
  })
  .meta({ id: "WebhookAttempt" });

export const WebhookDelivery = z
  .object({
    id: z.uuid(),
    webhook_id: z.uuid(),
    event_id: z.uuid(),
    event_type: z.string(),
    payload: z.string().meta({ description: "The JSON body sent, byte for byte the same on every attempt." }),
    status: z.enum(DELIVERY_STATUSES),
    attempt_count: z.number().int(),
    next_attempt_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    attempts: z.array(WebhookAttempt).meta({ description: "Oldest first." }),
  })
  .meta({ id: "WebhookDelivery" });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

const TenantPath = { tenant_id: z.string().max(100) };
const WebhookPath = { ...TenantPath, webhook_id: z.string().max(100) };

export const ListWebhooksInput = PageQuery.extend(TenantPath);
export const TenantPathInput = z.object(TenantPath);
export const WebhookPage = pageOf(Webhook).meta({ id: "WebhookPage" });

export const CreateWebhookInput = z
  .strictObject({
    ...TenantPath,
    url: WebhookUrl,
    events: EventSelection,
    secret: WebhookSecret.optional(),
    description: Description.optional(),
    rate_limit_per_second: RateLimitPerSecond.optional(),
    ordering: WebhookOrdering.optional(),
    filter: WebhookFilter.nullable().optional(),
  })
  .meta({ id: "CreateWebhookRequest" });
export type CreateWebhookInput = z.infer<typeof CreateWebhookInput>;

export const UpdateWebhookInput = z
  .strictObject({
    ...WebhookPath,
    enabled: JsonBoolean.optional(),
    url: WebhookUrl.optional(),
    events: EventSelection.optional(),
    description: Description.nullable().optional(),
    rate_limit_per_second: RateLimitPerSecond.optional(),
    ordering: WebhookOrdering.optional(),
    filter: WebhookFilter.nullable()
      .optional()
      .meta({ description: `${FILTER_DOC} Null clears it.` }),
  })
  .meta({ id: "UpdateWebhookRequest" });
export type UpdateWebhookInput = z.infer<typeof UpdateWebhookInput>;

export const WebhookPathInput = z.object(WebhookPath);

export const RotateSecretInput = z
  .strictObject({ ...WebhookPath, secret: WebhookSecret.optional() })
  .meta({ id: "RotateWebhookSecretRequest" });
export type RotateSecretInput = z.infer<typeof RotateSecretInput>;

export const ListDeliveriesInput = PageQuery.extend({
  ...WebhookPath,
  status: z.enum(DELIVERY_STATUSES, { error: `must be one of ${DELIVERY_STATUSES.join(", ")}` }).optional(),
});
export type ListDeliveriesInput = z.infer<typeof ListDeliveriesInput>;
export const DeliveryPage = pageOf(WebhookDelivery).meta({ id: "WebhookDeliveryPage" });

export const DeliveryPathInput = z.object({ ...WebhookPath, delivery_id: z.string().max(100) });

export const FilterTestInput = z
  .strictObject({
    ...TenantPath,
    filter: WebhookFilter,
    event_type: z.string({ error: "must be a string" }).max(200, "must be at most 200 characters").refine(isSubscribable, SUBSCRIBABLE),
  })
  .meta({ id: "WebhookFilterTestRequest" });
export type FilterTestInput = z.infer<typeof FilterTestInput>;

export const FilterTestResult = z
  .object({
    matches: z.boolean(),
    error: z.string().nullable().meta({ description: "Why the filter failed on the example (it then does not match), or null." }),
    payload: z.string().meta({ description: "The example payload it was evaluated against." }),
  })
  .meta({ id: "WebhookFilterTestResult" });
export type FilterTestResult = z.infer<typeof FilterTestResult>;

/** The most deliveries one recover request queues; past it the oldest are queued and `truncated` is true. */
export const MAX_RECOVER = 10_000;
export const RECOVER_STATUSES = ["queued", "running", "done", "failed"] as const;

export const RecoverInput = z
  .strictObject({
    ...WebhookPath,
    since: z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time" }),
    until: z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time" }).optional(),
  })
  .refine((input) => !input.until || Date.parse(input.until) > Date.parse(input.since), {
    path: ["until"],
    message: "must be after since",
  })
  .meta({ id: "RecoverWebhookRequest" });
export type RecoverInput = z.infer<typeof RecoverInput>;

export const RecoverJob = z
  .object({
    id: z.uuid(),
    webhook_id: z.uuid(),
    status: z.enum(RECOVER_STATUSES).meta({
      description:
        "`queued` (no instance has picked it up), `running` (its deliveries are queued, not all ended), `done`, `failed` (see `error`).",
    }),
    queued: z
      .number()
      .int()
      .meta({ description: `Deliveries re-sent (at most ${MAX_RECOVER.toLocaleString("en")}).` }),
    sent: z.number().int().meta({ description: "Of those, how many the endpoint has accepted (2xx)." }),
    truncated: z.boolean().meta({
      description: `More than ${MAX_RECOVER.toLocaleString("en")} matched: the oldest were queued; recover again from \`next_since\`.`,
    }),
    next_since: z.iso.datetime().nullable().meta({ description: "When truncated: the creation time of the first delivery left out." }),
    since: z.iso.datetime(),
    until: z.iso.datetime().nullable(),
    error: z.string().nullable(),
    created_at: z.iso.datetime(),
    finished_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "WebhookRecoverJob" });
export type RecoverJob = z.infer<typeof RecoverJob>;

export const RecoverJobPathInput = z.object({ ...WebhookPath, job_id: z.string().max(100) });
