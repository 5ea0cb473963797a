/**
 * Webhooks of a tenant. The secret is stored encrypted and returned only by create and
 * rotate-secret; rotating needs a fresh step-up and keeps the old secret signing for 24 hours.
 * Changing the URL (where every future signed event goes) needs a fresh step-up too.
 * Disabling cancels what is still due; re-enabling clears the reason and the failure streak.
 */
import { type Tx, sqlIn } from "../db/client.ts";
import { keysetPage, keysetWhere, type PageRequest } from "../db/keyset.ts";
import { isUuid } from "../db/ids.ts";
import { NotFound } from "../errors.ts";
import { clock } from "../clock.ts";
import type { TenantServiceContext } from "../service-context.ts";
import { assertSteppedUp } from "../auth/step-up.ts";
import { actorOf, emitEvent } from "../events/emit.ts";
import { flips, patchChanges, patchEvents } from "../events/patch-events.ts";
import { encryptSecret } from "../secrets/encryption.ts";
import { generateSecret, secretHint } from "./crypto.ts";
import type { CreateWebhookInput, DeliveryStatus, RotateSecretInput, UpdateWebhookInput, Webhook, WebhookOrdering } from "./schemas.ts";
import { assertOutboundUrl } from "../outbound/url-policy.ts";
import { assertFilter } from "./filter.ts";

const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

const withLastDelivery = {
  deliveries: {
    where: { lastAttemptAt: { not: null } },
    orderBy: [{ lastAttemptAt: "desc" as const }, { id: "desc" as const }],
    take: 1,
    select: { status: true, lastResponseStatus: true, lastAttemptAt: true },
  },
};

export interface WebhookRow {
  id: string;
  tenantId: string;
  url: string;
  events: string[];
  enabled: boolean;
  description: string | null;
  secretHint: string;
  disabledReason: string | null;
  failingSince: Date | null;
  rateLimitPerSecond: number | null;
  ordering: string;
  filter: string | null;
  createdAt: Date;
  updatedAt: Date;
  deliveries: { status: string; lastResponseStatus: number | null; lastAttemptAt: Date | null }[];
}

export function presentWebhook(row: WebhookRow): Webhook {
  const last = row.deliveries[0];
  return {
    id: row.id,
    tenant_id: row.tenantId,
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    description: row.description,
    secret_hint: row.secretHint,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    disabled_reason: row.disabledReason,
    failing_since: row.failingSince?.toISOString() ?? null,
    rate_limit_per_second: row.rateLimitPerSecond,
    ordering: row.ordering as WebhookOrdering,
    filter: row.filter,
    last_delivery:
      last?.lastAttemptAt != null
        ? {
            status: last.status as DeliveryStatus,
            response_status: last.lastResponseStatus,
            attempted_at: last.lastAttemptAt.toISOString(),
          }
        : null,
  };
}

export async function listWebhooks({ db: { prisma: db }, tenantId }: TenantServiceContext, page: PageRequest) {
  return keysetPage<WebhookRow>(page, {
    key: (row) => ({ at: row.createdAt, id: row.id }),
    count: () => db.webhook.count({ where: { tenantId } }),
    find: ({ after, order, skip, take }) =>
      db.webhook.findMany({
        where: { AND: [{ tenantId }, keysetWhere("createdAt", after, order)] },
        orderBy: [{ createdAt: order }, { id: order }],
        include: withLastDelivery,
        skip,
        take,
      }),
  });
}

export async function getWebhook({ db, tenantId }: TenantServiceContext, webhookId: string): Promise<WebhookRow> {
  return findWebhook(db.prisma, tenantId, webhookId);
}

/** The webhook in the tenant, read in `db` (a transaction, or the client); 404 outside the tenant. */
export async function findWebhook(db: Tx, tenantId: string, webhookId: string): Promise<WebhookRow> {
  const row = isUuid(webhookId) ? await db.webhook.findFirst({ where: { id: webhookId, tenantId }, include: withLastDelivery }) : null;
  if (!row) throw NotFound("Webhook");
  return row;
}

/** Locks the webhook row for the rest of the transaction, then reads it (404 outside the tenant). */
async function lockWebhook(tx: Tx, tenantId: string, webhookId: string): Promise<WebhookRow> {
  if (isUuid(webhookId)) await tx.$queryRaw`SELECT id FROM webhooks WHERE id = ${webhookId}::uuid FOR UPDATE`;
  return findWebhook(tx, tenantId, webhookId);
}

/** A webhook as an event names it: by its URL (as it is after the change). */
const target = (id: string, url: string) => ({ type: "webhook", id, name: url });

export async function createWebhook({ db, actor, tenantId }: TenantServiceContext, input: CreateWebhookInput) {
  assertOutboundUrl("url", input.url);
  assertFilter(input.filter);
  const secret = input.secret ?? generateSecret();
  const webhook = await db.prisma.$transaction(async (tx) => {
    const row = await tx.webhook.create({
      data: {
        tenantId,
        url: input.url,
        events: input.events,
        description: input.description || null,
        filter: input.filter ?? null,
        secretCiphertext: encryptSecret(secret),
        secretHint: secretHint(secret),
        rateLimitPerSecond: input.rate_limit_per_second ?? null,
        ordering: input.ordering,
      },
    });
    await emitEvent(sqlIn(tx), actorOf(actor.principal, actor.request), {
      type: "webhook.created",
      tenantId,
      target: target(row.id, row.url),
      details: {
        url: row.url,
        events: row.events,
        description: row.description,
        enabled: row.enabled,
        rate_limit_per_second: row.rateLimitPerSecond,
        ordering: row.ordering,
        filter: row.filter,
      },
    });
    return findWebhook(tx, tenantId, row.id);
  });
  return { webhook, secret };
}

/**
 * Applies a PATCH: `.updated` with the changed fields, `.enabled`/`.disabled` when the state flips.
 * A new `url` needs a fresh step-up, asked once the webhook is found (another tenant's stays a 404).
 */
export async function updateWebhook({ db, actor, tenantId }: TenantServiceContext, input: UpdateWebhookInput) {
  assertOutboundUrl("url", input.url);
  assertFilter(input.filter);
  return db.prisma.$transaction(async (tx) => {
    const current = await lockWebhook(tx, tenantId, input.webhook_id);
    const description = input.description === undefined ? undefined : input.description || null;
    const changes = patchChanges({
      url: { from: current.url, to: input.url },
      events: { from: current.events, to: input.events },
      description: { from: current.description, to: description },
      rate_limit_per_second: { from: current.rateLimitPerSecond, to: input.rate_limit_per_second },
      ordering: { from: current.ordering, to: input.ordering },
      filter: { from: current.filter, to: input.filter },
    });
    if (changes.url) await assertSteppedUp(tx, actor.principal);
    const enabled = { from: current.enabled, to: input.enabled };
    const flipped = flips(enabled);
    if (!flipped && Object.keys(changes).length === 0) return current;

    await tx.webhook.update({
      where: { id: current.id },
      data: {
        url: input.url,
        events: input.events,
        description,
        filter: input.filter,
        enabled: input.enabled,
        rateLimitPerSecond: input.rate_limit_per_second,
        ordering: input.ordering,
        ...(flipped && input.enabled ? { disabledReason: null, failingSince: null } : {}),
        ...(flipped && !input.enabled ? { disabledReason: null } : {}),
      },
    });
    if (flipped && !input.enabled) await cancelDue(tx, current.id, "webhook disabled");

    const events = patchEvents("webhook", {
      tenantId,
      target: target(current.id, input.url ?? current.url),
      label: { url: input.url ?? current.url },
      changes,
      enabled,
    });
    for (const event of events) await emitEvent(sqlIn(tx), actorOf(actor.principal, actor.request), event);
    return findWebhook(tx, tenantId, current.id);
  });
}

/** Deliveries still due for a webhook are cancelled (nothing is sent to a disabled webhook). */
async function cancelDue(tx: Tx, webhookId: string, reason: string) {
  await tx.webhookDelivery.updateMany({
    where: { webhookId, status: { in: ["pending", "failed"] } },
    data: { status: "cancelled", nextAttemptAt: null, lastError: reason },
  });
}

/** Deletes the webhook; its deliveries (due or not) go with it, so nothing more is sent. */
export async function deleteWebhook({ db, actor, tenantId }: TenantServiceContext, webhookId: string) {
  await db.prisma.$transaction(async (tx) => {
    const current = await lockWebhook(tx, tenantId, webhookId);
    await tx.webhook.delete({ where: { id: current.id } });
    await emitEvent(sqlIn(tx), actorOf(actor.principal, actor.request), {
      type: "webhook.deleted",
      tenantId,
      target: target(current.id, current.url),
      details: { url: current.url, events: current.events },
    });
  });
}

/** New secret (given or generated); the old one keeps signing alongside for 24 hours. Needs step-up. */
export async function rotateSecret({ db, actor, tenantId }: TenantServiceContext, input: RotateSecretInput) {
  const secret = input.secret ?? generateSecret();
  const webhook = await db.prisma.$transaction(async (tx) => {
    const current = await lockWebhook(tx, tenantId, input.webhook_id);
    await assertSteppedUp(tx, actor.principal);
    const { secretCiphertext } = await tx.webhook.findUniqueOrThrow({ where: { id: current.id }, select: { secretCiphertext: true } });
    const previousExpiresAt = new Date(clock.now().getTime() + SECRET_OVERLAP_MS);
    await tx.webhook.update({
      where: { id: current.id },
      data: {
        secretCiphertext: encryptSecret(secret),
        secretHint: secretHint(secret),
        previousSecretCiphertext: secretCiphertext,
        previousSecretExpiresAt: previousExpiresAt,
      },
    });
    await emitEvent(sqlIn(tx), actorOf(actor.principal, actor.request), {
      type: "webhook.secret_rotated",
      tenantId,
      target: target(current.id, current.url),
      details: { url: current.url, previous_secret_expires_at: previousExpiresAt.toISOString() },
    });
    return findWebhook(tx, tenantId, current.id);
  });
  return { webhook, secret };
}
