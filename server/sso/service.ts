/**
 * SSO providers of a tenant. Disabling, deleting and changing who is trusted or where sign-in data
 * flows (STEP_UP_FIELDS) need a fresh step-up; a metadata URL change drops the stored client secret
 * unless it brings a new one. Email domains are unique within a tenant across its providers
 * (./domains.ts). After a create, an URL change or a refresh, the metadata is fetched and read
 * (checks.ts): it informs, never blocks. An uploaded document (`metadata_xml`) is read at once
 * and refused when unusable (./metadata-source.ts).
 */
import { type Tx, sqlIn } from "../db/client.ts";
import { keysetPage, keysetWhere, type PageRequest } from "../db/keyset.ts";
import { Conflict, InvalidField, NotFound } from "../errors.ts";
import { keepsAnAdminWhoCanSignIn, TenantAdmins } from "../members/index.ts";
import type { TenantServiceContext } from "../service-context.ts";
import { assertSteppedUp } from "../auth/step-up.ts";
import { actorOf, emitEvent } from "../events/emit.ts";
import { flips, patchChanges, patchEvents } from "../events/patch-events.ts";
import type { MetadataDetails } from "./metadata.ts";
import { runMetadataCheck, scheduleMetadataCheck } from "./checks.ts";
import { STEP_UP_FIELDS, type CreateSsoInput, type ProviderType, type SsoProvider, type UpdateSsoInput } from "./schemas.ts";
import { isUuid } from "../db/ids.ts";
import { encryptSecret } from "../secrets/encryption.ts";
import { oidcSpDetails, samlSpDetails } from "./sp.ts";
import { assertDomainsFree, claimDomains, enableConflict } from "./domains.ts";
import { assertUploadAllowed, createSource, readGiven, sourceMove, sourceOf } from "./metadata-source.ts";

const withDomains = { domains: { select: { domain: true }, orderBy: { domain: "asc" } } } as const;

export interface ProviderRow {
  id: string;
  tenantId: string;
  providerType: string;
  name: string;
  metadataUrl: string | null;
  metadataXml: string | null;
  enabled: boolean;
  metadataStatus: string;
  metadataCheckedAt: Date | null;
  metadataError: string | null;
  metadataDetails: unknown;
  protocol: string;
  clientId: string | null;
  clientSecretCiphertext: string | null;
  clientSecretDropped: boolean;
  defaultRole: string;
  allowIdpInitiated: boolean;
  entraTenantIds: string[];
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
    protocol: row.protocol === "oidc" ? "oidc" : "saml",
    name: row.name,
    metadata_url: row.metadataUrl,
    metadata_source: sourceOf(row),
    enabled: row.enabled,
    domains: row.domains.map((d) => d.domain),
    sp: row.protocol === "oidc" ? oidcSpDetails(row.id) : samlSpDetails(row.id),
    client_id: row.clientId,
    client_secret_set: row.clientSecretCiphertext !== null,
    client_secret_dropped: row.clientSecretDropped,
    default_role: row.defaultRole === "admin" ? "admin" : "viewer",
    allow_idp_initiated: row.allowIdpInitiated,
    entra_tenant_ids: row.entraTenantIds,
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
  const row = isUuid(providerId) ? await db.ssoProvider.findFirst({ where: { id: providerId, tenantId }, include: withDomains }) : null;
  if (!row) throw NotFound("SSO provider");
  return row;
}

/** Fields that make no sense on a provider's type (OIDC credentials on SAML, Entra ID directories off Entra ID) are refused by field. */
function assertTypeFields(
  providerType: string,
  input: { client_id?: string | null; client_secret?: string | null; entra_tenant_ids?: string[]; metadata_xml?: string },
) {
  assertUploadAllowed(providerType, input);
  if (providerType !== "azure_ad" && input.entra_tenant_ids?.length)
    throw InvalidField("entra_tenant_ids", "is only for azure_ad providers");
  if (providerType !== "saml") return;
  if (input.client_id) throw InvalidField("client_id", "is only for OIDC providers");
  if (input.client_secret) throw InvalidField("client_secret", "is only for OIDC providers");
}

/**
 * Creates the provider, then checks its metadata URL in the background (after the commit); a document is read first.
 * `id`: the id a setup link reserved, so that the values its IT admin pasted into their IdP hold.
 */
export async function createProvider({ db, actor, tenantId }: TenantServiceContext, input: CreateSsoInput, id?: string) {
  const source = createSource(input.provider_type, input);
  assertTypeFields(input.provider_type, input);
  const domains = input.domains ?? [];
  const provider = await db.prisma
    .$transaction(async (tx) => {
      const enabled = input.enabled ?? true;
      const row = await tx.ssoProvider.create({
        data: {
          ...(id ? { id } : {}),
          tenantId,
          providerType: input.provider_type,
          name: input.name,
          ...source.columns,
          enabled,
          clientId: input.client_id ?? null,
          clientSecretCiphertext: input.client_secret ? encryptSecret(input.client_secret) : null,
          defaultRole: input.default_role ?? "viewer",
          allowIdpInitiated: input.allow_idp_initiated ?? false,
          entraTenantIds: input.entra_tenant_ids ?? [],
        },
      });
      if (enabled) await assertDomainsFree(tx, tenantId, domains);
      await claimDomains(tx, tenantId, row.id, domains);
      await emitEvent(sqlIn(tx), actorOf(actor.principal, actor.request), {
        type: "sso_provider.created",
        tenantId,
        target: { type: "sso_provider", id: row.id, name: row.name },
        details: {
          name: row.name,
          provider_type: row.providerType,
          metadata_url: row.metadataUrl,
          ...source.audit,
          enabled: row.enabled,
          domains,
          client_id: row.clientId,
          client_secret_set: row.clientSecretCiphertext !== null,
          default_role: row.defaultRole,
          allow_idp_initiated: row.allowIdpInitiated,
          entra_tenant_ids: row.entraTenantIds,
        },
      });
      return findProvider(tx, tenantId, row.id);
    })
    .catch((error: unknown) => enableConflict(error, domains));
  if (provider.metadataXml === null) scheduleMetadataCheck(db, provider.id);
  return provider;
}

type SecretState = "set" | "unset" | "changed" | "dropped";

/**
 * What a PATCH does to the stored OIDC client secret: sets, replaces or removes it as given, and
 * drops it when the metadata URL moves without a new one, so that the secret never reaches the
 * token endpoint of another IdP. The audit trail gets only its state, never the secret.
 */
function secretUpdate(current: ProviderRow, given: string | null | undefined, metadataMoved: boolean) {
  const from: SecretState = current.clientSecretCiphertext ? "set" : current.clientSecretDropped ? "dropped" : "unset";
  const update = (ciphertext: string | null, dropped: boolean, to: SecretState) => ({ ciphertext, dropped, change: { from, to } });
  if (given === undefined) return metadataMoved && from === "set" ? update(null, true, "dropped") : null;
  if (given === null) return from === "unset" ? null : update(null, false, "unset");
  return update(encryptSecret(given), false, from === "set" ? "changed" : "set");
}

/**
 * Applies a PATCH. Disabling an enabled provider, and changing any of STEP_UP_FIELDS, need a fresh
 * step-up, asked once the provider is found (another tenant's stays a 404). Emits `.updated` with
 * the changed fields, and `.enabled`/`.disabled` when the state flips.
 */
export async function updateProvider({ db, actor, tenantId }: TenantServiceContext, input: UpdateSsoInput): Promise<ProviderRow> {
  const upload = readGiven(input);
  const { provider, metadataChanged } = await db.prisma.$transaction(async (tx) => {
    if (isUuid(input.provider_id)) await tx.$queryRaw`SELECT id FROM sso_providers WHERE id = ${input.provider_id}::uuid FOR UPDATE`;
    const current = await findProvider(tx, tenantId, input.provider_id);
    const source = sourceMove(current, input, upload);
    const changes = patchChanges({
      name: { from: current.name, to: input.name },
      domains: { from: current.domains.map((d) => d.domain), to: input.domains },
      client_id: { from: current.clientId, to: input.client_id },
      default_role: { from: current.defaultRole, to: input.default_role },
      allow_idp_initiated: { from: current.allowIdpInitiated, to: input.allow_idp_initiated },
      entra_tenant_ids: { from: current.entraTenantIds, to: input.entra_tenant_ids },
    });
    Object.assign(changes, source.changes);
    const disabling = input.enabled === false && current.enabled;
    if (disabling || STEP_UP_FIELDS.some((field) => changes[field])) await assertSteppedUp(tx, actor.principal);
    if (disabling) await assertAdminsKeepAWayIn(tx, tenantId, current.id, "disable");
    assertTypeFields(current.providerType, input);

    const secret = secretUpdate(current, input.client_secret, source.columns !== null);
    if (secret) changes.client_secret = secret.change;
    const enabled = { from: current.enabled, to: input.enabled };
    const flipped = flips(enabled);
    if (!flipped && Object.keys(changes).length === 0) return { provider: current, metadataChanged: false };

    const domains = input.domains ?? current.domains.map((d) => d.domain);
    if ((input.enabled ?? current.enabled) && (flipped || changes.domains)) await assertDomainsFree(tx, tenantId, domains);
    await tx.ssoProvider
      .update({
        where: { id: current.id },
        data: {
          name: input.name,
          enabled: input.enabled,
          clientId: input.client_id,
          clientSecretCiphertext: secret?.ciphertext,
          clientSecretDropped: secret?.dropped,
          defaultRole: input.default_role,
          allowIdpInitiated: input.allow_idp_initiated,
          entraTenantIds: input.entra_tenant_ids,
          ...source.columns,
        },
      })
      .catch((error: unknown) => enableConflict(error, domains));
    if (changes.domains)
      await claimDomains(tx, tenantId, current.id, input.domains!).catch((error: unknown) => enableConflict(error, domains));

    const events = patchEvents("sso_provider", {
      tenantId,
      target: { type: "sso_provider", id: current.id, name: input.name ?? current.name },
      label: { name: input.name ?? current.name },
      changes,
      enabled,
    });
    for (const event of events) await emitEvent(sqlIn(tx), actorOf(actor.principal, actor.request), event);
    return { provider: await findProvider(tx, tenantId, current.id), metadataChanged: source.columns?.metadataUrl != null };
  });
  if (metadataChanged) scheduleMetadataCheck(db, provider.id);
  return provider;
}

/**
 * The last-admin rule (server/members/admins.ts) for SSO: turning off or deleting the provider through
 * which the tenant's admins sign in must leave one admin who can still sign in (a password, or
 * another enabled provider of the tenant for their domain). 409 otherwise.
 */
async function assertAdminsKeepAWayIn(tx: Tx, tenantId: string, providerId: string, action: "disable" | "delete") {
  await TenantAdmins.lock(tx, tenantId);
  if (!(await keepsAnAdminWhoCanSignIn(tx, tenantId, providerId))) {
    throw Conflict(
      `Cannot ${action} this provider: the tenant's admins sign in only through it, and none would be left who can sign in. ` +
        "Give an admin a password first (Forgot password on the sign-in page), or make an admin who has one.",
    );
  }
}

export async function deleteProvider({ db, actor, tenantId }: TenantServiceContext, providerId: string) {
  await db.prisma.$transaction(async (tx) => {
    const current = await findProvider(tx, tenantId, providerId);
    await assertSteppedUp(tx, actor.principal);
    await assertAdminsKeepAWayIn(tx, tenantId, current.id, "delete");
    await tx.ssoProvider.delete({ where: { id: current.id } });
    await emitEvent(sqlIn(tx), actorOf(actor.principal, actor.request), {
      type: "sso_provider.deleted",
      tenantId,
      target: { type: "sso_provider", id: current.id, name: current.name },
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
