/**
 * Directory groups in the database: columns from the canonical resource, reads, and members,
 * which live in `directory_group_members` (never in `resource`) and are written in batches (a
 * PATCH may add a thousand at once: one statement each way). A group may have tens of thousands:
 * their ids are read as one text value, and members with their names through the SQL runner, whose
 * rows are parsed as they arrive rather than all at once.
 */
import type { Database, Tx } from "../../db/client.ts";
import type { SqlStatements } from "../../db/sql.ts";
import type { DirectoryGroup as GroupRow, Prisma } from "../../db/generated/client.ts";
import { isUuid } from "../../db/ids.ts";
import { invalidValue, scimNotFound } from "./errors.ts";
import type { ScimRef } from "./resource.ts";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

export interface GroupColumns {
  displayName: string;
  externalId: string | null;
}

export function groupColumns(resource: Json): GroupColumns {
  const displayName = resource.displayName;
  if (typeof displayName !== "string" || displayName.trim() === "") throw invalidValue("displayName is required");
  return { displayName, externalId: typeof resource.externalId === "string" && resource.externalId !== "" ? resource.externalId : null };
}

/** The resource as stored: no id, meta, schemas, nor members (the members table has them). */
export function storedGroup(resource: Json): Json {
  const { id: _id, meta: _meta, schemas: _schemas, members: _members, ...rest } = resource;
  return rest;
}

/** The member ids a resource's `members` names ([{value}]), each once; a value that is no string is refused. */
export function memberIdsOf(resource: Json): string[] {
  if (resource.members === undefined || resource.members === null) return [];
  if (!Array.isArray(resource.members)) throw invalidValue("members must be an array");
  const ids = new Set<string>();
  for (const member of resource.members) {
    if (!isObject(member) || typeof member.value !== "string") throw invalidValue("each member must have a string value");
    ids.add(member.value);
  }
  return [...ids];
}

export async function findGroup(db: Database, directoryId: string, id: string): Promise<GroupRow> {
  const row = isUuid(id) ? await db.prisma.directoryGroup.findFirst({ where: { id, directoryId } }) : null;
  if (!row) throw scimNotFound(`Group ${id} not found`);
  return row;
}

export async function lockGroup(tx: Tx, directoryId: string, id: string): Promise<GroupRow> {
  if (!isUuid(id)) throw scimNotFound(`Group ${id} not found`);
  await tx.$queryRawUnsafe(`SELECT 1 FROM directory_groups WHERE id = $1::uuid AND directory_id = $2::uuid FOR UPDATE`, id, directoryId);
  const row = await tx.directoryGroup.findFirst({ where: { id, directoryId } });
  if (!row) throw scimNotFound(`Group ${id} not found`);
  return row;
}

/** A group row over alias `r` under the model's names, for raw reads. */
const GROUP_COLUMNS = `r.id::text, r.directory_id::text AS "directoryId", r.tenant_id::text AS "tenantId", r.external_id AS "externalId",
  r.display_name AS "displayName", r.display_name_lower AS "displayNameLower", r.resource, r.version,
  to_json(r.created_at) #>> '{}' AS "createdAt", to_json(r.updated_at) #>> '{}' AS "updatedAt"`;

/**
 * A page of the directory's groups matching `where` (SQL over alias `r`, from filterToSql), oldest
 * first, and how many match in all: one statement (a page past the end counts apart).
 */
export async function listGroups(
  sql: SqlStatements,
  where: string | null,
  /** `$1` the directory id, then the filter's values. */
  params: unknown[],
  offset: number,
  limit: number,
): Promise<{ total: number; rows: GroupRow[] }> {
  const condition = `r.directory_id = $1::uuid${where ? ` AND (${where})` : ""}`;
  type Raw = Omit<GroupRow, "createdAt" | "updatedAt"> & { createdAt: string; updatedAt: string; total: number };
  const rows =
    limit === 0
      ? []
      : await sql.query<Raw>(
          `SELECT ${GROUP_COLUMNS}, count(*) OVER ()::int AS total FROM directory_groups r WHERE ${condition}
            ORDER BY r.created_at, r.id OFFSET ${offset} LIMIT ${limit}`,
          params,
        );
  if (rows.length)
    return {
      total: rows[0]!.total,
      rows: rows.map(({ total: _total, ...row }) => ({ ...row, createdAt: new Date(row.createdAt), updatedAt: new Date(row.updatedAt) })),
    };
  const [{ total }] = (await sql.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM directory_groups r WHERE ${condition}`,
    params,
  )) as [{ total: number }];
  return { total, rows: [] };
}

export interface Member {
  value: string;
  display: string;
}

/** Each group's members (user id, and the user's displayName else userName), in the order they joined. */
export async function membersOf(sql: SqlStatements, groupIds: string[]): Promise<Map<string, Member[]>> {
  const members = new Map<string, Member[]>(groupIds.map((id) => [id, []]));
  if (!groupIds.length) return members;
  const rows = await sql.query<{ group_id: string; value: string; display: string }>(
    `SELECT m.group_id::text, m.user_id::text AS value, coalesce(u.resource->>'displayName', u.user_name) AS display
       FROM directory_group_members m JOIN directory_users u ON u.id = m.user_id
      WHERE m.group_id = ANY($1::uuid[]) ORDER BY m.created_at, m.user_id`,
    [groupIds],
  );
  for (const row of rows) members.get(row.group_id)?.push({ value: row.value, display: row.display });
  return members;
}

/**
 * A group's members as SCIM shows them ({value, display, $ref} under `base`, the directory's SCIM
 * URL), in the order they joined: the rows themselves, as the driver reads them.
 */
export function memberRefsOf(sql: SqlStatements, groupId: string, base: string): Promise<ScimRef[]> {
  return sql.query(
    `SELECT m.user_id::text AS value, coalesce(u.resource->>'displayName', u.user_name) AS display, $2 || '/Users/' || m.user_id AS "$ref"
       FROM directory_group_members m JOIN directory_users u ON u.id = m.user_id
      WHERE m.group_id = $1::uuid ORDER BY m.created_at, m.user_id`,
    [groupId, base],
  );
}

/** A group's member ids (lowercase), in the order they joined: one text value, split here. */
export async function memberIdsOfGroup(tx: Tx, groupId: string): Promise<string[]> {
  const [{ ids }] = (await tx.$queryRawUnsafe<{ ids: string }[]>(
    `SELECT coalesce(string_agg(user_id::text, ',' ORDER BY created_at, user_id), '') AS ids
       FROM directory_group_members WHERE group_id = $1::uuid`,
    groupId,
  )) as [{ ids: string }];
  return ids === "" ? [] : ids.split(",");
}

/**
 * Ids travel as one comma-separated text value, split in the database (`string_to_array(…)::uuid[]`):
 * thousands of them cost one string, not a parameter array to serialise. Only uuids, which have no comma.
 */
const idList = (ids: string[]) => ids.join(",");

/** Of the ids given, those naming users of this directory (others are ignored and counted by the caller). */
export async function knownUsers(tx: Tx, directoryId: string, ids: string[]): Promise<Set<string>> {
  const candidates = ids.filter(isUuid);
  if (!candidates.length) return new Set();
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id::text FROM directory_users WHERE directory_id = $1::uuid AND id = ANY(string_to_array($2, ',')::uuid[])`,
    directoryId,
    idList(candidates),
  );
  return new Set(rows.map((row) => row.id));
}

/** Adds users (ids of this directory's users) to the group. */
export async function addMembers(tx: Tx, group: GroupRow, userIds: string[]): Promise<void> {
  if (!userIds.length) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO directory_group_members (group_id, user_id, directory_id)
     SELECT $1::uuid, u, $2::uuid FROM unnest(string_to_array($3, ',')::uuid[]) AS u ON CONFLICT DO NOTHING`,
    group.id,
    group.directoryId,
    idList(userIds),
  );
}

/** Removes members (ids the group's members were read as). */
export async function removeMembers(tx: Tx, groupId: string, userIds: string[]): Promise<void> {
  if (!userIds.length) return;
  await tx.$executeRawUnsafe(
    `DELETE FROM directory_group_members WHERE group_id = $1::uuid AND user_id = ANY(string_to_array($2, ',')::uuid[])`,
    groupId,
    idList(userIds),
  );
}

export function insertGroup(tx: Tx, directory: { id: string; tenantId: string }, resource: Json, columns: GroupColumns): Promise<GroupRow> {
  return tx.directoryGroup.create({
    data: { directoryId: directory.id, tenantId: directory.tenantId, ...columns, resource: resource as Prisma.InputJsonObject },
  });
}

export function updateGroup(tx: Tx, row: GroupRow, resource: Json, columns: GroupColumns): Promise<GroupRow> {
  return tx.directoryGroup.update({
    where: { id: row.id },
    data: { ...columns, resource: resource as Prisma.InputJsonObject, version: row.version + 1, updatedAt: new Date() },
  });
}

/** A change of members alone still makes a new version (meta.version is the whole resource's). */
export function touchGroup(tx: Tx, row: GroupRow): Promise<GroupRow> {
  return tx.directoryGroup.update({ where: { id: row.id }, data: { version: row.version + 1, updatedAt: new Date() } });
}
