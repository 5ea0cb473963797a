/**
 * Resolves which tenant a tenant-scoped call is about and the caller's role there.
 * Used by tenantProcedure; the rules themselves live in policy.ts.
 */
import type { Tx } from "../db/client.ts";
import { NotFound, TenantRequired } from "../errors.ts";
import { asTenantRole, type Principal, type TenantRole } from "./principal.ts";
import { seesAllTenants, tenantRoleOf } from "./policy.ts";
import { isUuid } from "../db/ids.ts";

export interface TenantAccess {
  id: string;
  role: TenantRole;
}

/**
 * The tenant a call without a tenant in its path is about (e.g. /api/v1/sso): the token's tenant
 * scope, else the caller's only tenant, else 400 tenant_required.
 */
async function impliedTenantId(db: Tx, principal: Principal): Promise<string> {
  if (principal.token?.tenantId) return principal.token.tenantId;
  if (!isUuid(principal.userId)) throw TenantRequired("Name the tenant");
  const memberships = await db.membership.findMany({ where: { userId: principal.userId }, select: { tenantId: true }, take: 2 });
  if (memberships.length === 1 && !seesAllTenants(principal)) return memberships[0]!.tenantId;
  throw TenantRequired(
    "This caller can act in several tenants: use /api/v1/tenants/{tenant_id}/… or a token scoped to one tenant",
  );
}

/** The tenant and the caller's role in it; 404 when the caller has no access (or it does not exist). */
export async function resolveTenantAccess(db: Tx, principal: Principal, tenantId: unknown): Promise<TenantAccess> {
  const id = tenantId === undefined || tenantId === null || tenantId === "" ? await impliedTenantId(db, principal) : tenantId;
  if (!isUuid(id)) throw NotFound("Tenant");
  const tenant = await db.tenant.findUnique({ where: { id }, select: { id: true } });
  if (!tenant) throw NotFound("Tenant");
  const membership = isUuid(principal.userId)
    ? await db.membership.findUnique({ where: { tenantId_userId: { tenantId: id, userId: principal.userId } }, select: { role: true } })
    : null;
  const role = tenantRoleOf(principal, tenant.id, asTenantRole(membership?.role ?? null));
  if (!role) throw NotFound("Tenant");
  return { id: tenant.id, role };
}
