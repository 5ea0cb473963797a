/**
 * Who may do what, decided in one place. Procedures (server/trpc/procedures.ts) ask
 * these questions; no route or service checks roles by hand.
 *
 *   platform operator   admin in every tenant; creates tenants; mints tokens for others
 *   platform support    viewer in every tenant (reads config and audit, never secrets)
 *   tenant admin        reads and writes its tenant
 *   tenant viewer       reads its tenant
 *   read-only token     at most viewer, whatever its owner is
 *   tenant-scoped token no access outside its tenant (404 there, as if it did not exist)
 *   SSO session         signed in through tenant T's provider: T only (404 elsewhere), never a
 *                       platform role (principals are built with platformRole null), and so are
 *                       the tokens minted in it
 *   setup link          a customer's IT admin: its tenant's guided flow of its intent only
 *                       (setup procedures); any other procedure is 403, another tenant 404
 */
import type { Principal, TenantRole } from "./principal.ts";

const RANK: Record<TenantRole, number> = { viewer: 1, admin: 2 };

/** Operators create tenants and act as admin everywhere. */
export function isOperator(principal: Principal): boolean {
  return principal.platformRole === "operator";
}

/** Operators and support staff see every tenant; other users only their own. */
export function seesAllTenants(principal: Principal): boolean {
  return principal.platformRole === "operator" || principal.platformRole === "support";
}

/** A read-only token may call no write operation, whatever its owner's roles. */
export function mayWrite(principal: Principal): boolean {
  return !principal.token?.readOnly;
}

/**
 * The role the principal holds in a tenant given its membership there (or null), or null when it
 * has no access at all (which callers answer with 404).
 */
export function tenantRoleOf(principal: Principal, tenantId: string, membership: TenantRole | null): TenantRole | null {
  const only = scopeTenantOf(principal);
  if (only && only !== tenantId) return null;
  const platform: TenantRole | null =
    principal.platformRole === "operator" ? "admin" : principal.platformRole === "support" ? "viewer" : null;
  const candidates = [platform, membership].filter((r): r is TenantRole => r !== null);
  if (candidates.length === 0) return null;
  const best = candidates.reduce((a, b) => (RANK[a] >= RANK[b] ? a : b));
  return principal.token?.readOnly ? "viewer" : best;
}

/**
 * The one tenant this principal may reach, if it is confined to one: an SSO session's tenant, or a
 * tenant-scoped token's. (A token minted in an SSO session carries both, equal.)
 */
export function scopeTenantOf(principal: Principal): string | null {
  return principal.setupLink?.tenantId ?? principal.ssoTenantId ?? principal.token?.tenantId ?? null;
}

/**
 * A setup link reaches no procedure but its guided flow's: in its tenant a 403 (it is there, but not
 * for this link), elsewhere a 404 like any confined principal. Null for everyone else.
 */
export function setupLinkRefusal(principal: Principal, tenantId: unknown): "forbidden" | "not_found" | null {
  if (!principal.setupLink) return null;
  const other = typeof tenantId === "string" && tenantId !== "" && tenantId !== principal.setupLink.tenantId;
  return other ? "not_found" : "forbidden";
}

export function roleSatisfies(role: TenantRole, required: TenantRole): boolean {
  return RANK[role] >= RANK[required];
}

/** Operators may act for another user (mint tokens for them, list their tokens). */
export function mayActForOthers(principal: Principal): boolean {
  return isOperator(principal) && mayWrite(principal);
}
