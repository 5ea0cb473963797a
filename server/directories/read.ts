/**
 * The read API of a directory's data for the SaaS's own apps (tenant viewers): its users with
 * their groups, its groups with their sizes, and (admins) the sync activity, the log of the SCIM
 * requests its IdP sent. Every read first finds the directory in the caller's tenant, so another
 * tenant's directory, user or group is a 404 like an unknown one.
 */
import type {
  DirectoryGroup as DirectoryGroupRow,
  DirectoryUser as DirectoryUserRow,
  ScimRequest as ScimRequestRow,
} from "../db/generated/client.ts";
import type { Tx } from "../db/client.ts";
import { isUuid } from "../db/ids.ts";
import { keysetPage, keysetSql, type Cursor, type PageRequest, type PageResult } from "../db/keyset.ts";
import { containsPattern } from "../db/search.ts";
import { NotFound } from "../errors.ts";
import type { TenantServiceContext } from "../service-context.ts";
import { presentDirectoryGroup, presentDirectoryUser } from "./present.ts";
import { getDirectory } from "./service.ts";
import type { DirectoryGroup, DirectoryUser, DirectoryUserState, ScimRequestEntry } from "./schemas.ts";

/** The columns of directory_users under the model's names, so raw rows present like Prisma's. */
const USER_COLUMNS = `u.id, u.directory_id AS "directoryId", u.tenant_id AS "tenantId", u.external_id AS "externalId",
  u.user_name AS "userName", u.user_name_lower AS "userNameLower", u.active, u.given_name AS "givenName",
  u.family_name AS "familyName", u.primary_email AS "primaryEmail", u.resource, u.version, u.user_id AS "userId", u.role,
  u.deprovisioned_at AS "deprovisionedAt", u.unlinked_reason AS "unlinkedReason", u.created_at AS "createdAt", u.updated_at AS "updatedAt"`;

const GROUP_COLUMNS = `g.id, g.directory_id AS "directoryId", g.tenant_id AS "tenantId", g.external_id AS "externalId",
  g.display_name AS "displayName", g.display_name_lower AS "displayNameLower", g.resource, g.version,
  g.created_at AS "createdAt", g.updated_at AS "updatedAt",
  (SELECT count(*)::int FROM directory_group_members m WHERE m.group_id = g.id) AS "userCount"`;

type GroupWithCount = DirectoryGroupRow & { userCount: number };

/** Each user's groups, by name. */
export async function groupsOfUsers(db: Tx, userIds: readonly string[]): Promise<Map<string, { id: string; name: string }[]>> {
  const rows = await db.directoryGroupMember.findMany({
    where: { userId: { in: [...userIds] } },
    select: { userId: true, group: { select: { id: true, displayName: true } } },
    orderBy: [{ group: { displayName: "asc" } }, { groupId: "asc" }],
  });
  const groups = new Map(userIds.map((id) => [id, [] as { id: string; name: string }[]]));
  for (const row of rows) groups.get(row.userId)?.push({ id: row.group.id, name: row.group.displayName });
  return groups;
}

/** Of these linked accounts, those that are members of the tenant (they alone show their `user_id`). */
export async function membersAmong(db: Tx, tenantId: string, rows: readonly { userId: string | null }[]): Promise<Set<string>> {
  const userIds = [...new Set(rows.flatMap((r) => (r.userId ? [r.userId] : [])))];
  if (userIds.length === 0) return new Set();
  const members = await db.membership.findMany({ where: { tenantId, userId: { in: userIds } }, select: { userId: true } });
  return new Set(members.map((m) => m.userId));
}

export interface UserFilter {
  group_id?: string;
  state?: DirectoryUserState;
  linked?: boolean;
  search?: string;
}

/**
 * The conditions of the users list. `search` is a substring, any case, of the user name, any of
 * the emails, the first or the last name; or the user's exact id. A `group_id` that names no
 * group of the directory matches no one.
 */
function userConditions(directoryId: string, filter: UserFilter, params: unknown[]): string {
  params.push(directoryId);
  const where = [`u.directory_id = $${params.length}::uuid`];
  if (filter.state) where.push(filter.state === "active" ? "u.active" : "NOT u.active");
  if (filter.linked !== undefined) where.push(filter.linked ? "u.user_id IS NOT NULL" : "u.user_id IS NULL");
  if (filter.group_id !== undefined) {
    if (isUuid(filter.group_id)) {
      params.push(filter.group_id);
      where.push(`EXISTS (SELECT 1 FROM directory_group_members m WHERE m.user_id = u.id AND m.group_id = $${params.length}::uuid)`);
    } else where.push("FALSE");
  }
  const term = filter.search?.trim();
  if (term) {
    params.push(containsPattern(term));
    // search_text: the user name, names and every email, lower-cased (migration 20261201030000).
    const matches = [`u.search_text LIKE $${params.length}`];
    if (isUuid(term)) {
      params.push(term);
      matches.push(`u.id = $${params.length}::uuid`);
    }
    where.push(`(${matches.join(" OR ")})`);
  }
  return where.join(" AND ");
}

/** Newest first: users of the directory, each with their groups. */
export async function listDirectoryUsers(
  ctx: TenantServiceContext,
  directoryId: string,
  filter: UserFilter,
  page: PageRequest,
): Promise<PageResult<DirectoryUser>> {
  const { sql, prisma } = ctx.db;
  const directory = await getDirectory(ctx, directoryId);
  const params: unknown[] = [];
  const condition = userConditions(directory.id, filter, params);
  const result = await keysetPage<DirectoryUserRow>(page, {
    key: (row) => ({ at: row.createdAt, id: row.id }),
    count: async () =>
      (await sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM directory_users u WHERE ${condition}`, params))[0]!.count,
    find: ({ after, order, skip, take }) => {
      const p = [...params];
      const bound = keysetSql(["u.created_at", "u.id"], after, order, p);
      p.push(take, skip);
      return sql.query<DirectoryUserRow>(
        `SELECT ${USER_COLUMNS} FROM directory_users u WHERE ${condition} AND ${bound}
         ORDER BY u.created_at ${order}, u.id ${order} LIMIT $${p.length - 1} OFFSET $${p.length}`,
        p,
      );
    },
  });
  const groups = await groupsOfUsers(
    prisma,
    result.items.map((row) => row.id),
  );
  const members = await membersAmong(prisma, directory.tenantId, result.items);
  return { ...result, items: result.items.map((row) => presentDirectoryUser(row, groups.get(row.id) ?? [], members)) };
}

export async function getDirectoryUser(ctx: TenantServiceContext, directoryId: string, id: string): Promise<DirectoryUser> {
  const directory = await getDirectory(ctx, directoryId);
  const row = isUuid(id) ? await ctx.db.prisma.directoryUser.findFirst({ where: { id, directoryId: directory.id } }) : null;
  if (!row) throw NotFound("Directory user");
  const groups = await groupsOfUsers(ctx.db.prisma, [row.id]);
  return presentDirectoryUser(row, groups.get(row.id) ?? [], await membersAmong(ctx.db.prisma, directory.tenantId, [row]));
}

/** Newest first: groups of the directory, with how many users each has; `search` as for users, on the name. */
export async function listDirectoryGroups(
  ctx: TenantServiceContext,
  directoryId: string,
  filter: { search?: string },
  page: PageRequest,
): Promise<PageResult<DirectoryGroup>> {
  const { sql } = ctx.db;
  const directory = await getDirectory(ctx, directoryId);
  const params: unknown[] = [directory.id];
  let condition = "g.directory_id = $1::uuid";
  const term = filter.search?.trim();
  if (term) {
    params.push(containsPattern(term));
    const matches = [`g.display_name_lower LIKE $${params.length}`];
    if (isUuid(term)) {
      params.push(term);
      matches.push(`g.id = $${params.length}::uuid`);
    }
    condition += ` AND (${matches.join(" OR ")})`;
  }
  const result = await keysetPage<GroupWithCount>(page, {
    key: (row) => ({ at: row.createdAt, id: row.id }),
    count: async () =>
      (await sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM directory_groups g WHERE ${condition}`, params))[0]!.count,
    find: ({ after, order, skip, take }) => {
      const p = [...params];
      const bound = keysetSql(["g.created_at", "g.id"], after, order, p);
      p.push(take, skip);
      return sql.query<GroupWithCount>(
        `SELECT ${GROUP_COLUMNS} FROM directory_groups g WHERE ${condition} AND ${bound}
         ORDER BY g.created_at ${order}, g.id ${order} LIMIT $${p.length - 1} OFFSET $${p.length}`,
        p,
      );
    },
  });
  return { ...result, items: result.items.map((row) => presentDirectoryGroup(row, row.userCount)) };
}

export async function getDirectoryGroup(ctx: TenantServiceContext, directoryId: string, id: string): Promise<DirectoryGroup> {
  const directory = await getDirectory(ctx, directoryId);
  const row = isUuid(id) ? await ctx.db.prisma.directoryGroup.findFirst({ where: { id, directoryId: directory.id } }) : null;
  if (!row) throw NotFound("Directory group");
  const userCount = await ctx.db.prisma.directoryGroupMember.count({ where: { groupId: row.id } });
  return presentDirectoryGroup(row, userCount);
}

/*
 * The log's ids are a bigserial, and page cursors carry a uuid: the serial travels written as
 * one (its 32 hex digits), which decodeCursor accepts and nothing else confuses with a row's id.
 */
const serialAsUuid = (id: bigint) =>
  id
    .toString(16)
    .padStart(32, "0")
    .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
const MAX_SERIAL = 2n ** 63n - 1n;
const serialOf = (cursor: Cursor) => {
  const value = BigInt(`0x${cursor.id.replaceAll("-", "")}`);
  return value > MAX_SERIAL ? MAX_SERIAL : value;
};

function requestsAfter(cursor: Cursor | undefined, order: "asc" | "desc") {
  if (!cursor) return {};
  const op = order === "desc" ? "lt" : "gt";
  return { OR: [{ createdAt: { [op]: cursor.at } }, { createdAt: cursor.at, id: { [op]: serialOf(cursor) } }] };
}

export function presentScimRequest(row: ScimRequestRow): ScimRequestEntry {
  return {
    id: row.id.toString(),
    method: row.method,
    path: row.path,
    status: row.status,
    duration_ms: row.durationMs,
    summary: row.summary,
    scim_type: row.scimType,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * The sync activity: the directory's SCIM requests, newest first. `failed: true` keeps those
 * answered 400 or above (what an admin looks for when the IdP reports errors), `false` the others.
 */
export async function listScimRequests(
  ctx: TenantServiceContext,
  directoryId: string,
  filter: { failed?: boolean },
  page: PageRequest,
): Promise<PageResult<ScimRequestEntry>> {
  const { prisma } = ctx.db;
  const directory = await getDirectory(ctx, directoryId);
  const status = filter.failed === undefined ? {} : { status: filter.failed ? { gte: 400 } : { lt: 400 } };
  const where = { directoryId: directory.id, ...status };
  const result = await keysetPage<ScimRequestRow>(page, {
    key: (row) => ({ at: row.createdAt, id: serialAsUuid(row.id) }),
    count: () => prisma.scimRequest.count({ where }),
    find: ({ after, order, skip, take }) =>
      prisma.scimRequest.findMany({
        where: { AND: [where, requestsAfter(after, order)] },
        orderBy: [{ createdAt: order }, { id: order }],
        skip,
        take,
      }),
  });
  return { ...result, items: result.items.map(presentScimRequest) };
}
