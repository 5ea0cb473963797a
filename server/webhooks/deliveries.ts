/**
 * The deliveries log of a webhook (newest first, attempts oldest first), one delivery, a manual retry, and the
 * `webhook.test` event: a delivery to that one webhook, not an audit event and not fanned out.
 */
import { randomUUID } from "node:crypto";
import { type Tx, sqlIn } from "../db/client.ts";
import { keysetPage, keysetWhere, type PageRequest } from "../db/keyset.ts";
import { isUuid } from "../db/ids.ts";
import { Conflict, NotFound } from "../errors.ts";
import { clock } from "../clock.ts";
import type { TenantServiceContext } from "../service-context.ts";
import { enqueueSingle } from "./outbox.ts";
import { findWebhook } from "./service.ts";
import { wakeWebhookDispatcher } from "./sink.ts";
import type { DeliveryStatus, WebhookDelivery } from "./schemas.ts";

const withAttempts = { attempts: { orderBy: { attempt: "asc" } } } as const;

interface DeliveryRow {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  payload: string;
  status: string;
  attemptCount: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  attempts: {
    attempt: number;
    startedAt: Date;
    durationMs: number;
    responseStatus: number | null;
    responseBody: string | null;
    error: string | null;
    nextAttemptAt: Date | null;
    requestUrl: string | null;
    requestHeaders: unknown;
    responseHeaders: unknown;
  }[];
}

/** A jsonb column holding `{name: value}` (as the delivery core records it), or null. */
const headersOf = (value: unknown) => (value && typeof value === "object" ? (value as Record<string, string>) : null);

export function presentDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhook_id: row.webhookId,
    event_id: row.eventId,
    event_type: row.eventType,
    payload: row.payload,
    status: row.status as DeliveryStatus,
    attempt_count: row.attemptCount,
    next_attempt_at: row.nextAttemptAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    attempts: row.attempts.map((a) => ({
      attempt: a.attempt,
      started_at: a.startedAt.toISOString(),
      duration_ms: a.durationMs,
      response_status: a.responseStatus,
      response_body: a.responseBody,
      error: a.error,
      next_attempt_at: a.nextAttemptAt?.toISOString() ?? null,
      request: a.requestUrl ? { url: a.requestUrl, headers: headersOf(a.requestHeaders) ?? {} } : null,
      response_headers: headersOf(a.responseHeaders),
    })),
  };
}

export async function listDeliveries(
  { db: { prisma: db }, tenantId }: TenantServiceContext,
  { webhookId, status, page }: { webhookId: string; status?: DeliveryStatus; page: PageRequest },
) {
  const webhook = await findWebhook(db, tenantId, webhookId);
  const where = { webhookId: webhook.id, ...(status ? { status } : {}) };
  return keysetPage<DeliveryRow>(page, {
    key: (row) => ({ at: row.createdAt, id: row.id }),
    count: () => db.webhookDelivery.count({ where }),
    find: ({ after, order, skip, take }) =>
      db.webhookDelivery.findMany({
        where: { AND: [where, keysetWhere("createdAt", after, order)] },
        orderBy: [{ createdAt: order }, { id: order }],
        include: withAttempts,
        skip,
        take,
      }),
  });
}

async function getDelivery(db: Tx, webhookId: string, deliveryId: string): Promise<DeliveryRow> {
  const row = isUuid(deliveryId)
    ? await db.webhookDelivery.findFirst({ where: { id: deliveryId, webhookId }, include: withAttempts })
    : null;
  if (!row) throw NotFound("Delivery");
  return row;
}

/** One delivery of a webhook of the tenant, with its attempts (404 for anything else). */
export async function findDelivery(
  { db: { prisma: db }, tenantId }: TenantServiceContext,
  { webhookId, deliveryId }: { webhookId: string; deliveryId: string },
) {
  const webhook = await findWebhook(db, tenantId, webhookId);
  return getDelivery(db, webhook.id, deliveryId);
}

/**
 * Makes a delivery due now, whatever its state except `succeeded` (409: it arrived; send a test
 * event instead). An exhausted or cancelled delivery gets one more attempt (and is exhausted again
 * if that fails). A disabled webhook is 409: enable it first.
 */
export async function retryDelivery(
  { db, tenantId }: TenantServiceContext,
  { webhookId, deliveryId }: { webhookId: string; deliveryId: string },
) {
  const retried = await db.prisma.$transaction(async (tx) => {
    const webhook = await findWebhook(tx, tenantId, webhookId);
    const delivery = await getDelivery(tx, webhook.id, deliveryId);
    if (delivery.status === "succeeded") throw Conflict("This delivery succeeded; it is not retried");
    if (!webhook.enabled) throw Conflict("The webhook is disabled; enable it before retrying deliveries");
    await tx.webhookDelivery.update({
      where: { id: delivery.id },
      data: { status: delivery.status === "pending" ? "pending" : "failed", nextAttemptAt: clock.now(), lockedUntil: null },
    });
    await tx.$queryRawUnsafe(`SELECT pg_notify('webhook_deliveries_due', '')::text AS notified`);
    return getDelivery(tx, webhook.id, delivery.id);
  });
  wakeWebhookDispatcher(db);
  return retried;
}

/** Queues a `webhook.test` event to this webhook only; answers the (pending) delivery. */
export async function sendTestEvent({ db, actor: { principal }, tenantId }: TenantServiceContext, webhookId: string) {
  const delivery = await db.prisma.$transaction(async (tx) => {
    const webhook = await findWebhook(tx, tenantId, webhookId);
    if (!webhook.enabled) throw Conflict("The webhook is disabled; enable it before sending a test event");
    const id = await enqueueSingle(sqlIn(tx), webhook.id, {
      id: randomUUID(),
      type: "webhook.test",
      tenantId,
      createdAt: clock.now(),
      actor: { id: principal.userId, email: principal.email },
      target: { type: "webhook", id: webhook.id },
      details: { message: "This is a test event from the control plane." },
    });
    return getDelivery(tx, webhook.id, id);
  });
  wakeWebhookDispatcher(db);
  return delivery;
}
