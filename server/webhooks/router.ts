/** Webhooks of a tenant over REST at /tenants/{tenant_id}/webhooks. */
import { z } from "zod";
import { router } from "../trpc/init.ts";
import { tenantProcedure } from "../trpc/procedures.ts";
import { accepted, created, noContent, serviceContext } from "../trpc/context.ts";
import { envelope, pageRequest } from "../contract/pagination.ts";
import { OutboundPolicy } from "../outbound/schemas.ts";
import { outboundPolicy } from "../outbound/url-policy.ts";
import {
  CreateWebhookInput,
  DeliveryPage,
  DeliveryPathInput,
  FilterTestInput,
  FilterTestResult,
  ListDeliveriesInput,
  ListWebhooksInput,
  MAX_RECOVER,
  RecoverInput,
  RecoverJob,
  RecoverJobPathInput,
  RotateSecretInput,
  TenantPathInput,
  UpdateWebhookInput,
  Webhook,
  WebhookDelivery,
  WebhookPage,
  WebhookPathInput,
  WebhookWithSecret,
} from "./schemas.ts";
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, presentWebhook, rotateSecret, updateWebhook } from "./service.ts";
import { findDelivery, listDeliveries, presentDelivery, retryDelivery, sendTestEvent } from "./deliveries.ts";
import { testFilter } from "./filter-test.ts";
import { getRecoverJob, startRecover } from "./recover.ts";

const tags = ["Webhooks"];
const base = "/tenants/{tenant_id}/webhooks";
const one = `${base}/{webhook_id}` as const;

export const webhooksRouter = router({
  list: tenantProcedure("viewer")
    .meta({ openapi: { method: "GET", path: base, tags, summary: "List webhooks", protect: true } })
    .input(ListWebhooksInput)
    .output(WebhookPage)
    .query(async ({ ctx, input }) => envelope(ctx.url, input, await listWebhooks(serviceContext(ctx), pageRequest(input)), presentWebhook)),

  create: tenantProcedure("admin")
    .meta({
      successStatus: 201,
      openapi: {
        method: "POST",
        path: base,
        tags,
        summary: "Create a webhook",
        description:
          "`secret` (16-256 characters) is generated when omitted (`whsec_` + 32 random bytes, base64). The reply is the only time the secret is returned. Emits `webhook.created`.",
        protect: true,
      },
    })
    .input(CreateWebhookInput)
    .output(WebhookWithSecret)
    .mutation(async ({ ctx, input }) => {
      const { webhook, secret } = await createWebhook(serviceContext(ctx), input);
      return created(ctx, `/api/v1/tenants/${ctx.tenant.id}/webhooks/${webhook.id}`, { ...presentWebhook(webhook), secret });
    }),

  get: tenantProcedure("viewer")
    .meta({ openapi: { method: "GET", path: one, tags, summary: "Get a webhook", protect: true } })
    .input(WebhookPathInput)
    .output(Webhook)
    .query(async ({ ctx, input }) => presentWebhook(await getWebhook(serviceContext(ctx), input.webhook_id))),

  update: tenantProcedure("admin")
    .meta({
      stepUp: true,
      openapi: {
        method: "PATCH",
        path: one,
        tags,
        summary: "Update a webhook",
        description:
          "A new `url` (where every future signed event goes) needs a step-up in the last 10 minutes (else 401 `step_up_required`, nothing changed); " +
          "`events`, `description`, `enabled` and the same `url` again do not. " +
          "Emits `webhook.updated` (changed fields) and `webhook.enabled`/`.disabled`. Disabling cancels deliveries still due; enabling clears `disabled_reason`.",
        protect: true,
      },
    })
    .input(UpdateWebhookInput)
    .output(Webhook)
    .mutation(async ({ ctx, input }) => presentWebhook(await updateWebhook(serviceContext(ctx), input))),

  delete: tenantProcedure("admin")
    .meta({
      successStatus: 204,
      openapi: {
        method: "DELETE",
        path: one,
        tags,
        summary: "Delete a webhook",
        description: "Nothing more is delivered to it. Emits `webhook.deleted`.",
        protect: true,
      },
    })
    .input(WebhookPathInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await deleteWebhook(serviceContext(ctx), input.webhook_id);
      noContent(ctx);
    }),

  rotateSecret: tenantProcedure("admin")
    .meta({
      stepUp: true,
      openapi: {
        method: "POST",
        path: `${one}/rotate-secret`,
        tags,
        summary: "Rotate the signing secret",
        description:
          "Needs a step-up in the last 10 minutes (else 401 `step_up_required`). The new secret (given, or generated) is returned once; the old one keeps signing alongside for 24 hours. Emits `webhook.secret_rotated`.",
        protect: true,
      },
    })
    .input(RotateSecretInput)
    .output(WebhookWithSecret)
    .mutation(async ({ ctx, input }) => {
      const { webhook, secret } = await rotateSecret(serviceContext(ctx), input);
      return { ...presentWebhook(webhook), secret };
    }),

  test: tenantProcedure("admin")
    .meta({
      openapi: {
        method: "POST",
        path: `${one}/test`,
        tags,
        summary: "Send a test event",
        description:
          "Queues a `webhook.test` event to this webhook only and answers its delivery (first attempt right away). 409 when the webhook is disabled.",
        protect: true,
      },
    })
    .input(WebhookPathInput)
    .output(WebhookDelivery)
    .mutation(async ({ ctx, input }) => presentDelivery(await sendTestEvent(serviceContext(ctx), input.webhook_id))),

  deliveries: tenantProcedure("viewer")
    .meta({
      openapi: {
        method: "GET",
        path: `${one}/deliveries`,
        tags,
        summary: "List deliveries and their attempts",
        description: "Newest first; attempts oldest first. Filter with `status`.",
        protect: true,
      },
    })
    .input(ListDeliveriesInput)
    .output(DeliveryPage)
    .query(async ({ ctx, input }) =>
      envelope(
        ctx.url,
        input,
        await listDeliveries(serviceContext(ctx), { webhookId: input.webhook_id, status: input.status, page: pageRequest(input) }),
        presentDelivery,
      ),
    ),

  delivery: tenantProcedure("viewer")
    .meta({
      openapi: {
        method: "GET",
        path: `${one}/deliveries/{delivery_id}`,
        tags,
        summary: "Get a delivery and its attempts",
        description: "What a test event (or any delivery) came to: poll it until `status` is no longer `pending`.",
        protect: true,
      },
    })
    .input(DeliveryPathInput)
    .output(WebhookDelivery)
    .query(async ({ ctx, input }) =>
      presentDelivery(await findDelivery(serviceContext(ctx), { webhookId: input.webhook_id, deliveryId: input.delivery_id })),
    ),

  retry: tenantProcedure("admin")
    .meta({
      openapi: {
        method: "POST",
        path: `${one}/deliveries/{delivery_id}/retry`,
        tags,
        summary: "Retry a delivery now",
        description:
          "Makes the delivery due now (also an exhausted or cancelled one). 409 for a delivery that succeeded, or when the webhook is disabled.",
        protect: true,
      },
    })
    .input(DeliveryPathInput)
    .output(WebhookDelivery)
    .mutation(async ({ ctx, input }) =>
      presentDelivery(await retryDelivery(serviceContext(ctx), { webhookId: input.webhook_id, deliveryId: input.delivery_id })),
    ),

  recover: tenantProcedure("admin")
    .meta({
      successStatus: 202,
      openapi: {
        method: "POST",
        path: `${one}/recover`,
        tags,
        summary: "Recover failed deliveries",
        description:
          "Re-sends, oldest first, every delivery of this webhook created in [`since`, `until`) that ended `failed`, `exhausted` or `cancelled` " +
          `(at most ${MAX_RECOVER.toLocaleString("en")}; past that the oldest are queued, \`truncated\` is true and \`next_since\` says where to go on). ` +
          "Each is a new delivery of the same payload and event id (receivers dedupe on it) with a fresh retry schedule; a delivery is recovered once. " +
          "Queued by a background job: follow it with GET `.../recover/{job_id}`. 409 when the webhook is disabled.",
        protect: true,
      },
    })
    .input(RecoverInput)
    .output(RecoverJob)
    .mutation(async ({ ctx, input }) => accepted(ctx, await startRecover(serviceContext(ctx), input))),

  recoverJob: tenantProcedure("viewer")
    .meta({
      openapi: { method: "GET", path: `${one}/recover/{job_id}`, tags, summary: "Follow a recover job", protect: true },
    })
    .input(RecoverJobPathInput)
    .output(RecoverJob)
    .query(({ ctx, input }) => getRecoverJob(serviceContext(ctx), { webhookId: input.webhook_id, jobId: input.job_id })),

  filterTest: tenantProcedure("admin")
    .meta({
      openapi: {
        method: "POST",
        path: `${base}/filter-test`,
        tags,
        summary: "Try a content filter on an example event",
        description:
          "Checks `filter` as create and update do (400 naming `filter`), then evaluates it against an example payload of `event_type`.",
        protect: true,
      },
    })
    .input(FilterTestInput)
    .output(FilterTestResult)
    .mutation(({ ctx, input }) => testFilter(serviceContext(ctx), input)),

  /** Console only: where a webhook may point on this server (the form's URL rule follows it). */
  urlPolicy: tenantProcedure("admin")
    .input(TenantPathInput)
    .output(OutboundPolicy)
    .query(() => outboundPolicy()),
});
