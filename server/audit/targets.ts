/**
 * Which targets of audit events still exist in the tenant, so the console can link to them
 * (events keep the name they were written with; the thing itself may be gone).
 */
import type { TenantServiceContext } from "../service-context.ts";
import { isUuid } from "../db/ids.ts";
import type { LinkableTargetType } from "./schemas.ts";

/** Where each kind of target lives, as `SELECT id::text` of those among `$2` that exist in tenant `$1`. */
const EXISTING: Record<LinkableTargetType, string> = {
  tenant: `SELECT id::text FROM tenants WHERE id = $1::uuid AND id = ANY($2::uuid[])`,
  user: `SELECT user_id::text AS id FROM memberships WHERE tenant_id = $1::uuid AND user_id = ANY($2::uuid[])`,
  sso_provider: `SELECT id::text FROM sso_providers WHERE tenant_id = $1::uuid AND id = ANY($2::uuid[])`,
  webhook: `SELECT id::text FROM webhooks WHERE tenant_id = $1::uuid AND id = ANY($2::uuid[])`,
};

/** The given targets that exist in the tenant now (a user: a member of it), as `{type, id}`. */
export async function existingTargets(
  ctx: TenantServiceContext,
  input: { targets: Array<{ type: LinkableTargetType; id: string }> },
): Promise<{ results: Array<{ type: LinkableTargetType; id: string }> }> {
  const results: Array<{ type: LinkableTargetType; id: string }> = [];
  for (const type of Object.keys(EXISTING) as LinkableTargetType[]) {
    const ids = [...new Set(input.targets.filter((t) => t.type === type && isUuid(t.id)).map((t) => t.id))];
    if (!ids.length) continue;
    const rows = await ctx.db.sql.query<{ id: string }>(EXISTING[type], [ctx.tenantId, ids]);
    for (const row of rows) results.push({ type, id: row.id });
  }
  return { results };
}
