/**
 * Resolves which tenant a tenant-scoped call is about and the caller's role there.
 * Used by tenantProcedure on every tenant-scoped request, so it is plain SQL (one query for the
 * tenant and the caller's membership); the rules themselves live in policy.ts.
 */
import type { SqlRunner } from "../db/sql.ts";
import { sharedRead } from "../db/shared-read.ts";
import { NotFound, TenantRequired } from "../errors.ts";
import { asTenantRole, type Principal, type TenantRole } from "./principal.ts";
import { scopeTenantOf, seesAllTenants, tenantRoleOf } from "./policy.ts";
import { isUuid } from "../db/ids.ts";

export interface TenantAccess {
  id: string;
  role: TenantRole;
}

/**
 * The tenant a call without a tenant in its path is about (e.g. /api/v1/sso): the token's tenant
 * scope, else the caller's only tenant, else 400 tenant_required.
 */
async function impliedTenantId(sql: SqlRunner, principal: Principal): Promise<string> {
  const only = scopeTenantOf(principal);
  if (only) return only;
  if (!isUuid(principal.userId)) throw TenantRequired("Name the tenant");
  const memberships = await sql.query<{ tenant_id: string }>(`SELECT tenant_id FROM memberships WHERE user_id = $1::uuid LIMIT 2`, [
    principal.userId,
  ]);
  if (memberships.length === 1 && !seesAllTenants(principal)) return memberships[0]!.tenant_id;
  throw TenantRequired("This caller can act in several tenants: use /api/v1/tenants/{tenant_id}/… or a token scoped to one tenant");
}

/** The tenant and the caller's role in it; 404 when the caller has no access (or it does not exist). */
export async function resolveTenantAccess(sql: SqlRunner, principal: Principal, tenantId: unknown): Promise<TenantAccess> {
  const id = tenantId === undefined || tenantId === null || tenantId === "" ? await impliedTenantId(sql, principal) : tenantId;
  if (!isUuid(id)) throw NotFound("Tenant");
  // Shared with concurrent requests of the same caller to the same tenant (see sharedRead).
  const [tenant] = await sharedRead<{ id: string; role: string | null }>(
    sql,
    `SELECT t.id, m.role FROM tenants t LEFT JOIN memberships m ON m.tenant_id = t.id AND m.user_id = $2::uuid WHERE t.id = $1::uuid`,
    [id, isUuid(principal.userId) ? principal.userId : null],
    { prepare: true },
  );
  if (!tenant) throw NotFound("Tenant");
  const role = tenantRoleOf(principal, tenant.id, asTenantRole(tenant.role));
  if (!role) throw NotFound("Tenant");
  return { id: tenant.id, role };
}
