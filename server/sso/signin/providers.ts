/** Providers as sign-in sees them: by id, or by the domain of a work email. */
import type { Database } from "../../db/client.ts";
import { isUuid } from "../../db/ids.ts";
import { decryptSecret } from "../../secrets/encryption.ts";
import type { ProviderType } from "../schemas.ts";
import { SsoRefused, type SignInProvider } from "./protocol.ts";
import { domainAccess, type DomainAccess, domainOf } from "../../domains/index.ts";

const include = { domains: { select: { domain: true }, orderBy: { domain: "asc" } } } as const;

type Row = NonNullable<Awaited<ReturnType<Database["prisma"]["ssoProvider"]["findFirst"]>>> & { domains: { domain: string }[] };

function toSignInProvider(row: Row, access: ReadonlyMap<string, DomainAccess>): SignInProvider {
  const oidc = row.protocol === "oidc";
  return {
    id: row.id,
    tenantId: row.tenantId,
    providerType: row.providerType as ProviderType,
    protocol: oidc ? "oidc" : "saml",
    name: row.name,
    enabled: row.enabled,
    metadataUrl: row.metadataUrl,
    domains: row.domains.map((d) => d.domain),
    domainAccess: access,
    defaultRole: row.defaultRole === "admin" ? "admin" : "viewer",
    allowIdpInitiated: row.allowIdpInitiated,
    entraTenantIds: row.entraTenantIds,
    clientId: oidc ? row.clientId : null,
    clientSecret: oidc && row.clientSecretCiphertext ? decryptSecret(row.clientSecretCiphertext) : null,
    clientSecretDropped: oidc && row.clientSecretDropped,
  };
}

/** The provider with this id (enabled or not), or SsoRefused("unknown_provider"). */
export async function signInProviderById(db: Database, providerId: string): Promise<SignInProvider> {
  const row = isUuid(providerId) ? await db.prisma.ssoProvider.findUnique({ where: { id: providerId }, include }) : null;
  if (!row) throw new SsoRefused("unknown_provider", "no such SSO provider");
  const domains = row.domains.map((d) => d.domain);
  return toSignInProvider(row, await domainAccess(db.sql, row.tenantId, domains));
}

export { domainOf };

/** The one enabled provider that has this email's domain (unique platform-wide), else SsoRefused. */
export async function signInProviderForEmail(db: Database, email: string): Promise<SignInProvider> {
  const domain = domainOf(email);
  if (!domain) throw new SsoRefused("unknown_domain", "enter a work email address such as you@company.com");
  const routed = await db.prisma.ssoDomain.findFirst({ where: { domain, enabled: true }, select: { providerId: true } });
  if (!routed) throw new SsoRefused("unknown_domain", `no SSO provider is set up for ${domain}`);
  const provider = await signInProviderById(db, routed.providerId);
  if (!provider.enabled) throw new SsoRefused("disabled", "this SSO provider is disabled");
  // Only a domain its tenant verified routes here (or one routed before verification existed, until it fails).
  if (!provider.domainAccess.get(domain)?.routes)
    throw new SsoRefused("domain_not_verified", `${domain} is not a verified domain of this organisation`);
  return provider;
}
