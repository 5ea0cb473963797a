/** Tenants: create (operators), list and read (what the caller may see). */
import type { Database, Tx } from "../db/client.ts";
import { keysetPage, keysetWhere, type PageRequest } from "../db/keyset.ts";
import { Forbidden, NotFound } from "../errors.ts";
import { isOperator, seesAllTenants } from "../auth/policy.ts";
import type { Principal, RequestInfo } from "../auth/principal.ts";
import { actorOf, emitEvent } from "../events/emit.ts";
import type { CreateTenantInput, Tenant } from "./schemas.ts";
import { isUuid } from "../db/ids.ts";

interface TenantRow {
  id: string;
  name: string;
  createdAt: Date;
}

export function presentTenant(row: TenantRow): Tenant {
  return { id: row.id, name: row.name, created_at: row.createdAt.toISOString() };
}

/** Tenants the caller may see: all for operators and support, else those it is a member of. */
function visibleTo(principal: Principal) {
  const scope = principal.token?.tenantId ? { id: principal.token.tenantId } : {};
  if (seesAllTenants(principal)) return scope;
  return { ...scope, memberships: { some: { userId: principal.userId } } };
}

export async function createTenant(
  db: Database,
  principal: Principal,
  request: RequestInfo,
  input: CreateTenantInput,
): Promise<TenantRow> {
  if (!isOperator(principal)) throw Forbidden("Only platform operators may create tenants");
  return db.prisma.$transaction(async (tx) => {
    const tenant = await tx.tenant.create({ data: { name: input.name } });
    await emitEvent(tx, actorOf(principal, request), {
      type: "tenant.created",
      tenantId: tenant.id,
      target: { type: "tenant", id: tenant.id },
      details: { name: tenant.name },
    });
    return tenant;
  });
}

export async function listTenants(db: Tx, principal: Principal, page: PageRequest) {
  const where = visibleTo(principal);
  return keysetPage<TenantRow>(page, {
    key: (row) => ({ at: row.createdAt, id: row.id }),
    count: () => db.tenant.count({ where }),
    find: ({ after, order, skip, take }) =>
      db.tenant.findMany({
        where: { AND: [where, keysetWhere("createdAt", after, order)] },
        orderBy: [{ createdAt: order }, { id: order }],
        skip,
        take,
      }),
  });
}

/** A tenant the caller may see; any other id, existing or not, is 404. */
export async function getTenant(db: Tx, principal: Principal, tenantId: string): Promise<TenantRow> {
  const tenant = isUuid(tenantId)
    ? await db.tenant.findFirst({ where: { AND: [{ id: tenantId }, visibleTo(principal)] } })
    : null;
  if (!tenant) throw NotFound("Tenant");
  return tenant;
}
