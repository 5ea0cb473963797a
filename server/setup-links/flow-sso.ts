/**
 * The guided SSO setup of a setup link: the IT admin picks their IdP, pastes our values into it,
 * gives us its metadata (URL or file), runs Test sign-in and enables the provider. The link works
 * on one provider only: the one it was made for (its certificate update), or the one it creates.
 * The provider's id is reserved when the IdP is picked, so the ACS URL and entity ID the IT admin
 * pasted hold when the provider is created from the metadata they bring back.
 */
import { randomUUID } from "node:crypto";
import type { SetupLinkGrant } from "../auth/principal.ts";
import type { TenantServiceContext } from "../service-context.ts";
import type { Context } from "../trpc/context.ts";
import { AppError, Conflict, InvalidField } from "../errors.ts";
import {
  oidcSpDetails,
  samlSpDetails,
  createProvider,
  getProvider,
  presentProvider,
  refreshMetadata,
  updateProvider,
  type ProviderRow,
  beginTestSignIn,
  readTestResult,
  newBinding,
  bindingCookie,
} from "../sso/index.ts";
import { IDP_NAMES, IDP_PROVIDER_TYPE, type SaveIdpInput, type SetupIdp } from "./schemas.ts";

/** Where a setup Test sign-in comes back to: the guided page, which then reads the link's last test. */
export const SETUP_TEST_RETURN = "/setup?step=test";

async function linkRow(ctx: TenantServiceContext, link: SetupLinkGrant) {
  return ctx.db.prisma.setupLink.findUniqueOrThrow({ where: { id: link.id } });
}

/** The link's provider if it exists yet (null while only reserved, or before the IdP is picked). */
async function linkProvider(ctx: TenantServiceContext, providerId: string | null): Promise<ProviderRow | null> {
  if (!providerId) return null;
  try {
    return await getProvider(ctx, providerId);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  }
}

async function requireProvider(ctx: TenantServiceContext, link: SetupLinkGrant): Promise<ProviderRow> {
  const provider = await linkProvider(ctx, (await linkRow(ctx, link)).ssoProviderId);
  if (!provider) throw Conflict("Give us your IdP's metadata first: there is no provider to test or enable yet");
  return provider;
}

/** What the SSO steps show: the IdP picked, our values to paste there, the provider once it exists, the tenant's verified domains. */
export async function ssoState(ctx: TenantServiceContext, link: SetupLinkGrant) {
  const row = await linkRow(ctx, link);
  const provider = await linkProvider(ctx, row.ssoProviderId);
  const verified = await ctx.db.prisma.domain.findMany({
    where: { tenantId: ctx.tenantId, state: "verified" },
    select: { domain: true },
    orderBy: { domain: "asc" },
  });
  const id = row.ssoProviderId;
  return {
    idp: row.idp as SetupIdp | null,
    /** Made for an existing provider: the guided flow opens at its metadata (certificate) update. */
    updating: row.ssoProviderId !== null && row.idp === null,
    sp: id ? { ...samlSpDetails(id), ...oidcSpDetails(id) } : null,
    provider: provider ? presentProvider(provider) : null,
    verified_domains: verified.map((d) => d.domain),
  };
}

/** Picks the IdP (again, until the provider exists), reserving the provider's id. */
export async function chooseIdp(ctx: TenantServiceContext, link: SetupLinkGrant, idp: SetupIdp) {
  const row = await linkRow(ctx, link);
  if (await linkProvider(ctx, row.ssoProviderId)) {
    throw InvalidField("idp", "cannot change: the provider is set up already (update its metadata instead)");
  }
  await ctx.db.prisma.setupLink.update({ where: { id: row.id }, data: { idp, ssoProviderId: row.ssoProviderId ?? randomUUID() } });
  return ssoState(ctx, link);
}

/** The IdP's metadata (and OIDC client): creates the link's provider, disabled and named as asked (else after the IdP), or updates it. */
export async function saveIdp(ctx: TenantServiceContext, link: SetupLinkGrant, input: SaveIdpInput) {
  const row = await linkRow(ctx, link);
  if (!row.ssoProviderId) throw InvalidField("idp", "pick your identity provider first");
  const existing = await linkProvider(ctx, row.ssoProviderId);
  if (existing) {
    await updateProvider(ctx, { provider_id: existing.id, ...input });
  } else {
    const idp = row.idp as SetupIdp;
    if (!input.metadata_url && !input.metadata_xml) throw InvalidField("metadata_url", "give the metadata URL or upload the metadata file");
    const { name = IDP_NAMES[idp], ...idpSide } = input;
    await createProvider(ctx, { provider_type: IDP_PROVIDER_TYPE[idp], name, enabled: false, ...idpSide }, row.ssoProviderId);
  }
  return ssoState(ctx, link);
}

/** Reads the provider's metadata URL again (a rotated certificate published at the same URL). */
export async function refreshIdp(ctx: TenantServiceContext, link: SetupLinkGrant) {
  await refreshMetadata(ctx, (await requireProvider(ctx, link)).id);
  return ssoState(ctx, link);
}

/** Starts a Test sign-in bound to this browser (its binding cookie); it comes back to the guided page. */
export async function startSetupTest(ctx: TenantServiceContext & { response: Context["response"] }, link: SetupLinkGrant) {
  const provider = await requireProvider(ctx, link);
  const binding = newBinding();
  const started = await beginTestSignIn(ctx, provider.id, { binding, returnTo: SETUP_TEST_RETURN });
  ctx.response.headers["Set-Cookie"] = bindingCookie(binding);
  return { url: started.url, request_id: started.request_id };
}

/** The link's latest Test sign-in and its result (null before the first). */
export async function lastSetupTest(ctx: TenantServiceContext, link: SetupLinkGrant) {
  const row = await linkRow(ctx, link);
  if (!row.ssoProviderId) return null;
  const latest = await ctx.db.prisma.ssoSignInRequest.findFirst({
    where: { tenantId: ctx.tenantId, providerId: row.ssoProviderId, purpose: "test", initiatedBy: link.id },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  return latest ? readTestResult(ctx, { provider_id: row.ssoProviderId, request_id: latest.id }) : null;
}

/** Enables the provider, routing the verified domains chosen (only verified ones may route sign-ins). */
export async function enableSetupProvider(ctx: TenantServiceContext, link: SetupLinkGrant, domains: string[] | undefined) {
  const provider = await requireProvider(ctx, link);
  await updateProvider(ctx, { provider_id: provider.id, enabled: true, ...(domains ? { domains } : {}) });
  return ssoState(ctx, link);
}
