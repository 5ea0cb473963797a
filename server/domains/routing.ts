/**
 * Which of a tenant's domains route sign-ins: a verified one, and one pending from before domains
 * were verified (`routes_while_pending`) that has not failed since. Sign-in finds an SSO provider
 * by such a domain (server/sso), an invitation's link is kept from an email in another tenant's
 * routing domain (server/invitations), and the domains API shows it as `routes_sign_ins`. A domain
 * that only routes, pending, owns no one (ownership.ts).
 */
import type { SqlStatements } from "../db/sql.ts";

/** The predicate over a row of `domains`. */
const ROUTES = `(state = 'verified' OR (state = 'pending' AND routes_while_pending))`;

/** The predicate over a domain read whole. */
export function routesSignIns(domain: { state: string; routesWhilePending: boolean }): boolean {
  return domain.state === "verified" || (domain.state === "pending" && domain.routesWhilePending);
}

/** What a tenant's domain allows sign-in: routing to its provider, and joining it as a new member. */
export interface DomainAccess {
  /** It routes sign-ins (`routesSignIns`). */
  routes: boolean;
  /** Verified: the tenant owns its people, so a sign-in may make them members (ownership.ts). */
  verified: boolean;
  /** A person not yet a member joins the tenant by signing in (only where it is verified). */
  autoJoin: boolean;
}

/** The tenant's access of each of these domains; a domain the tenant does not have is absent. */
export async function domainAccess(sql: SqlStatements, tenantId: string, domains: string[]): Promise<Map<string, DomainAccess>> {
  if (domains.length === 0) return new Map();
  const rows = await sql.query<{ domain: string; routes: boolean; verified: boolean; auto_join: boolean }>(
    `SELECT domain, ${ROUTES} AS routes, state = 'verified' AS verified, auto_join
       FROM domains WHERE tenant_id = $1::uuid AND domain = ANY($2::text[])`,
    [tenantId, domains],
  );
  return new Map(rows.map((r) => [r.domain, { routes: r.routes, verified: r.verified, autoJoin: r.verified && r.auto_join }]));
}

/** Whether another tenant has this domain and it routes sign-ins there. */
export async function routesInAnotherTenant(sql: SqlStatements, tenantId: string, domain: string): Promise<boolean> {
  const rows = await sql.query(`SELECT 1 FROM domains WHERE domain = $1 AND tenant_id <> $2::uuid AND ${ROUTES} LIMIT 1`, [
    domain,
    tenantId,
  ]);
  return rows.length > 0;
}
