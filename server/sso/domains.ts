/**
 * Routing email domains to providers: an enabled provider's domains must be verified domains of its
 * tenant (server/domains), unique within a tenant across its providers, and platform-wide among
 * enabled providers (sign-in finds the provider by the email's domain).
 */
import { sqlIn, type Tx } from "../db/client.ts";
import { AppError, Conflict } from "../errors.ts";
import { domainAccess } from "../domains/index.ts";

/**
 * An enabled provider routes only domains its tenant has verified (issue 22: any tenant could claim
 * any domain and route its people's sign-ins to an IdP of its choosing). A domain that routed before
 * verification existed keeps routing while pending (server/domains/routing.ts), so existing
 * providers keep working.
 */
async function assertDomainsVerified(tx: Tx, tenantId: string, domains: string[]) {
  const access = await domainAccess(sqlIn(tx), tenantId, domains);
  const unverified = domains.filter((domain) => !access.get(domain)?.routes);
  if (unverified.length) {
    throw new AppError(
      "invalid_request",
      `Domain ${unverified.join(", ")} is not a verified domain of this tenant: add it under Domains, publish its DNS record and verify it first`,
      {
        errors: unverified.map((name) => ({
          path: `domains.${domains.indexOf(name)}`,
          message: "is not a verified domain of this tenant",
        })),
      },
    );
  }
}

/**
 * An enabled provider's domains must be verified domains of its tenant (400 naming each that is
 * not), and not be routed to another enabled provider anywhere on the platform (sign-in finds the
 * provider by the email's domain). Takes a transaction-scoped lock per
 * domain, in sorted order, so concurrent creates/enables of the same domain queue up here and the
 * loser gets this 409 naming the domain; the partial unique index sso_domains_enabled_domain_key
 * is the backstop (enableConflict maps its violation to the same 409).
 */
export async function assertDomainsFree(tx: Tx, tenantId: string, domains: string[]) {
  if (domains.length === 0) return;
  await assertDomainsVerified(tx, tenantId, domains);
  const sorted = [...new Set(domains)].sort();
  for (const domain of sorted) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`sso_domain:${domain}`}, 0))`;
  const taken = await tx.ssoDomain.findMany({
    // The tenant's own providers are claimDomains' business (a 409 of its own, enabled or not).
    where: { domain: { in: sorted }, enabled: true, tenantId: { not: tenantId } },
    select: { domain: true },
    orderBy: { domain: "asc" },
  });
  if (taken.length) {
    const names = taken.map((t) => t.domain);
    throw new AppError("conflict", `Domain ${names.join(", ")} is already routed to an enabled SSO provider`, {
      errors: names.map((name) => ({ path: `domains.${domains.indexOf(name)}`, message: "is already routed to an enabled SSO provider" })),
    });
  }
}

/** The backstop: a unique violation of the platform-wide index, as the same 409. */
export function enableConflict(error: unknown, domains: string[]): never {
  if (error instanceof AppError) throw error;
  const text = JSON.stringify((error as { meta?: unknown }).meta ?? {}) + String((error as Error).message);
  if ((error as { code?: string }).code === "P2002" || text.includes("sso_domains_enabled_domain_key") || text.includes("23505")) {
    throw Conflict(`Domain ${domains.join(", ")} is already routed to an enabled SSO provider`);
  }
  throw error;
}

/** Claims domains for a provider; a domain another provider of the tenant has is a 409. */
export async function claimDomains(tx: Tx, tenantId: string, providerId: string, domains: string[]) {
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
