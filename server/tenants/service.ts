/** Tenants: create (operators), list and read (what the caller may see). */
import { keysetPage, keysetSql, type PageRequest } from "../db/keyset.ts";
import { Forbidden, NotFound } from "../errors.ts";
import { isOperator, scopeTenantOf, seesAllTenants } from "../auth/policy.ts";
import type { Principal } from "../auth/principal.ts";
import type { ServiceContext } from "../service-context.ts";
import { actorOf, emitEvent } from "../events/emit.ts";
import type { CreateTenantInput, Tenant } from "./schemas.ts";
import { isUuid } from "../db/ids.ts";
import { searchSql } from "../db/search.ts";

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
  const only = scopeTenantOf(principal);
  const scope = only ? { id: only } : {};
  if (seesAllTenants(principal)) return scope;
  return { ...scope, memberships: { some: { userId: principal.userId } } };
}

export async function createTenant({ db, actor }: ServiceContext, input: CreateTenantInput): Promise<TenantRow> {
  if (!isOperator(actor.principal)) throw Forbidden("Only platform operators may create tenants");
  return db.sql.transaction(async (tx) => {
    const [tenant] = await tx.query<TenantRow>(`INSERT INTO tenants (name) VALUES ($1) RETURNING id, name, created_at AS "createdAt"`, [
      input.name,
    ]);
    await emitEvent(tx, actorOf(actor.principal, actor.request), {
      type: "tenant.created",
      tenantId: tenant!.id,
      target: { type: "tenant", id: tenant!.id, name: tenant!.name },
      details: { name: tenant!.name },
    });
    return tenant!;
  });
}

/**
 * The caller's tenants, newest first, optionally only those matching `search` (server/db/search.ts;
 * measured at 100,000 tenants in docs/benchmarks/search.md). Plain SQL: this is the hot read path of the API, and
 * Prisma's per-query cost is several times the query's own (docs/benchmarks/tenants-api.md).
 */
export async function listTenants({ db, actor: { principal } }: ServiceContext, page: PageRequest, search?: string) {
  const sql = db.sql;
  const params: unknown[] = [];
  const where: string[] = [];
  const only = scopeTenantOf(principal);
  if (only) {
    params.push(only);
    where.push(`t.id = $${params.length}::uuid`);
  }
  if (!seesAllTenants(principal)) {
    params.push(principal.userId);
    where.push(`EXISTS (SELECT 1 FROM memberships m WHERE m.tenant_id = t.id AND m.user_id = $${params.length}::uuid)`);
  }
  const matches = searchSql(search, { id: "t.id", lowered: "t.search_name" }, params);
  if (matches) where.push(matches);
  const filter = where.join(" AND ") || "TRUE";
  return keysetPage<TenantRow>(page, {
    key: (row) => ({ at: row.createdAt, id: row.id }),
    count: async () =>
      (await sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM tenants t WHERE ${filter}`, params))[0]!.count,
    find: ({ after, order, skip, take }) => {
      const p = [...params];
      const bound = keysetSql(["t.created_at", "t.id"], after, order, p);
      p.push(take, skip);
      return sql.query<TenantRow>(
        `SELECT t.id, t.name, t.created_at AS "createdAt" FROM tenants t WHERE ${filter} AND ${bound}
         ORDER BY t.created_at ${order}, t.id ${order} LIMIT $${p.length - 1} OFFSET $${p.length}`,
        p,
      );
    },
  });
}

/** A tenant the caller may see; any other id, existing or not, is 404. */
export async function getTenant({ db, actor: { principal } }: ServiceContext, tenantId: string): Promise<TenantRow> {
  const tenant = isUuid(tenantId) ? await db.prisma.tenant.findFirst({ where: { AND: [{ id: tenantId }, visibleTo(principal)] } }) : null;
  if (!tenant) throw NotFound("Tenant");
  return tenant;
}
