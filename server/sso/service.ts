/**
 * SSO providers of a tenant. Disabling and deleting need a fresh step-up. Email domains are
 * unique within a tenant across its providers (the database enforces it). After a create, an URL
 * change or a refresh, the metadata is fetched and read (checks.ts): it informs, never blocks.
 */
import type { Tx } from "../db/client.ts";
import { keysetPage, keysetWhere, type PageRequest } from "../db/keyset.ts";
import { AppError, Conflict, NotFound } from "../errors.ts";
import type { TenantServiceContext } from "../service-context.ts";
import { assertSteppedUp } from "../auth/step-up.ts";
import { actorOf, emitEvent } from "../events/emit.ts";
import { flips, patchChanges, patchEvents } from "../events/patch-events.ts";
import type { MetadataDetails } from "./metadata.ts";
import { runMetadataCheck, scheduleMetadataCheck } from "./checks.ts";
import type { CreateSsoInput, ProviderType, SsoProvider, UpdateSsoInput } from "./schemas.ts";
import { isUuid } from "../db/ids.ts";
import { assertOutboundUrl } from "../outbound/url-policy.ts";

const withDomains = { domains: { select: { domain: true }, orderBy: { domain: "asc" } } } as const;

export interface ProviderRow {
  id: string;
  tenantId: string;
  providerType: string;
  name: string;
  metadataUrl: string;
  enabled: boolean;
  metadataStatus: string;
  metadataCheckedAt: Date | null;
  metadataError: string | null;
  metadataDetails: unknown;
  createdAt: Date;
  updatedAt: Date;
  domains: { domain: string }[];
}

export function presentProvider(row: ProviderRow): SsoProvider {
  const details = (row.metadataDetails ?? {}) as MetadataDetails;
  return {
    id: row.id,
    tenant_id: row.tenantId,
    provider_type: row.providerType as ProviderType,
    name: row.name,
    metadata_url: row.metadataUrl,
    enabled: row.enabled,
    domains: row.domains.map((d) => d.domain),
    metadata: {
      status: row.metadataStatus as SsoProvider["metadata"]["status"],
      checked_at: row.metadataCheckedAt?.toISOString() ?? null,
      error: row.metadataError,
      entity_id: details.entity_id ?? null,
      issuer: details.issuer ?? null,
      sso_url: details.sso_url ?? null,
      token_endpoint: details.token_endpoint ?? null,
      jwks_uri: details.jwks_uri ?? null,
      certificate_expires_at: details.certificate_expires_at ?? null,
    },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function listProviders({ db: { prisma: db }, tenantId }: TenantServiceContext, page: PageRequest) {
  return keysetPage<ProviderRow>(page, {
    key: (row) => ({ at: row.createdAt, id: row.id }),
    count: () => db.ssoProvider.count({ where: { tenantId } }),
    find: ({ after, order, skip, take }) =>
      db.ssoProvider.findMany({
        where: { AND: [{ tenantId }, keysetWhere("createdAt", after, order)] },
        orderBy: [{ createdAt: order }, { id: order }],
        include: withDomains,
        skip,
        take,
      }),
  });
}

export async function getProvider({ db, tenantId }: TenantServiceContext, providerId: string): Promise<ProviderRow> {
  return findProvider(db.prisma, tenantId, providerId);
}

async function findProvider(db: Tx, tenantId: string, providerId: string): Promise<ProviderRow> {
  const row = isUuid(providerId)
    ? await db.ssoProvider.findFirst({ where: { id: providerId, tenantId }, include: withDomains })
    : null;
  if (!row) throw NotFound("SSO provider");
  return row;
}

/** Claims domains for a provider; a domain another provider of the tenant has is a 409. */
async function claimDomains(tx: Tx, tenantId: string, providerId: string, domains: string[]) {
  await tx.ssoDomain.deleteMany({ where: { providerId } });
  if (domains.length === 0) return;
  const taken = await tx.ssoDomain.findMany({ where: { tenantId, domain: { in: domains } }, select: { domain: true } });
  if (taken.length) {
    const names = taken.map((t) => t.domain);
    throw new AppError("conflict", `Domain ${names.join(", ")} is already routed to another SSO provider of this tenant`, {
      errors: names.map((name) => ({ path: `domains.${domains.indexOf(name)}`, message: "is already routed to another SSO provider" })),
    });
  }
  try {
    await tx.ssoDomain.createMany({ data: domains.map((domain) => ({ tenantId, domain, providerId })) });
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") throw Conflict("A domain is already routed to another SSO provider of this tenant");
    throw error;
  }
}

/** Creates the provider, then checks its metadata in the background (after the commit). */
export async function createProvider({ db, actor, tenantId }: TenantServiceContext, input: CreateSsoInput) {
  assertOutboundUrl("metadata_url", input.metadata_url);
  const provider = await db.prisma.$transaction(async (tx) => {
    const row = await tx.ssoProvider.create({
      data: { tenantId, providerType: input.provider_type, name: input.name, metadataUrl: input.metadata_url, enabled: input.enabled ?? true },
    });
    await claimDomains(tx, tenantId, row.id, input.domains ?? []);
    await emitEvent(tx, actorOf(actor.principal, actor.request), {
      type: "sso_provider.created",
      tenantId,
      target: { type: "sso_provider", id: row.id },
      details: { name: row.name, provider_type: row.providerType, metadata_url: row.metadataUrl, enabled: row.enabled, domains: input.domains ?? [] },
    });
    return findProvider(tx, tenantId, row.id);
  });
  scheduleMetadataCheck(db, provider.id);
  return provider;
}

/**
 * Applies a PATCH. `enabled: false` on an enabled provider needs a fresh step-up (spec). Emits
 * `.updated` with the changed fields, and `.enabled`/`.disabled` when the state flips.
 */
export async function updateProvider({ db, actor, tenantId }: TenantServiceContext, input: UpdateSsoInput): Promise<ProviderRow> {
  assertOutboundUrl("metadata_url", input.metadata_url);
  const { provider, metadataChanged } = await db.prisma.$transaction(async (tx) => {
    if (isUuid(input.provider_id)) await tx.$queryRaw`SELECT id FROM sso_providers WHERE id = ${input.provider_id}::uuid FOR UPDATE`;
    const current = await findProvider(tx, tenantId, input.provider_id);
    if (input.enabled === false && current.enabled) await assertSteppedUp(tx, actor.principal);

    const changes = patchChanges({
      name: { from: current.name, to: input.name },
      metadata_url: { from: current.metadataUrl, to: input.metadata_url },
      domains: { from: current.domains.map((d) => d.domain), to: input.domains },
    });
    const enabled = { from: current.enabled, to: input.enabled };
    const flipped = flips(enabled);
    if (!flipped && Object.keys(changes).length === 0) return { provider: current, metadataChanged: false };

    await tx.ssoProvider.update({
      where: { id: current.id },
      data: {
        name: input.name,
        metadataUrl: input.metadata_url,
        enabled: input.enabled,
        ...(changes.metadata_url ? { metadataStatus: "pending", metadataError: null, metadataCheckedAt: null, metadataDetails: {} } : {}),
      },
    });
    if (changes.domains) await claimDomains(tx, tenantId, current.id, input.domains!);

    const events = patchEvents("sso_provider", {
      tenantId,
      target: { type: "sso_provider", id: current.id },
      label: { name: input.name ?? current.name },
      changes,
      enabled,
    });
    for (const event of events) await emitEvent(tx, actorOf(actor.principal, actor.request), event);
    return { provider: await findProvider(tx, tenantId, current.id), metadataChanged: Boolean(changes.metadata_url) };
  });
  if (metadataChanged) scheduleMetadataCheck(db, provider.id);
  return provider;
}

export async function deleteProvider({ db, actor, tenantId }: TenantServiceContext, providerId: string) {
  await db.prisma.$transaction(async (tx) => {
    const current = await findProvider(tx, tenantId, providerId);
    await assertSteppedUp(tx, actor.principal);
    await tx.ssoProvider.delete({ where: { id: current.id } });
    await emitEvent(tx, actorOf(actor.principal, actor.request), {
      type: "sso_provider.deleted",
      tenantId,
      target: { type: "sso_provider", id: current.id },
      details: { name: current.name, provider_type: current.providerType, metadata_url: current.metadataUrl },
    });
  });
}

/** Fetches and checks the metadata again, waiting for the result; answers the provider as it is then. */
export async function refreshMetadata(ctx: TenantServiceContext, providerId: string): Promise<ProviderRow> {
  const provider = await getProvider(ctx, providerId);
  await runMetadataCheck(ctx.db, provider.id);
  return getProvider(ctx, provider.id);
}
