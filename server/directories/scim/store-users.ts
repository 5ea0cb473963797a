/**
 * Directory users in the database: the indexed columns derived from the canonical resource,
 * reads (one, a filtered page, their groups) and the row writes of the SCIM handlers.
 */
import type { Database, Tx } from "../../db/client.ts";
import type { DirectoryUser as UserRow, Prisma } from "../../db/generated/client.ts";
import { isUuid } from "../../db/ids.ts";
import { invalidValue, scimNotFound } from "./errors.ts";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** The columns kept beside `resource`, from it. */
export interface UserColumns {
  userName: string;
  externalId: string | null;
  active: boolean;
  givenName: string | null;
  familyName: string | null;
  primaryEmail: string | null;
}

const optionalText = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);

export function userColumns(resource: Json): UserColumns {
  const userName = resource.userName;
  if (typeof userName !== "string" || userName.trim() === "") throw invalidValue("userName is required");
  if (resource.active !== undefined && resource.active !== null && typeof resource.active !== "boolean")
    throw invalidValue("active must be a boolean");
  const name = isObject(resource.name) ? resource.name : {};
  const emails = (Array.isArray(resource.emails) ? resource.emails : []).filter(
    (email): email is Json => isObject(email) && typeof email.value === "string",
  );
  const email = emails.find((e) => e.primary === true) ?? emails[0];
  return {
    userName,
    externalId: optionalText(resource.externalId),
    active: resource.active !== false,
    givenName: optionalText(name.givenName),
    familyName: optionalText(name.familyName),
    primaryEmail: email ? String(email.value).toLowerCase() : null,
  };
}

/** The resource as stored: without what the row says elsewhere (id, meta, schemas, groups). */
export function storedUser(resource: Json): Json {
  const { id: _id, meta: _meta, schemas: _schemas, groups: _groups, ...rest } = resource;
  return rest;
}

export async function findUser(db: Database, directoryId: string, id: string): Promise<UserRow> {
  const row = isUuid(id) ? await db.prisma.directoryUser.findFirst({ where: { id, directoryId } }) : null;
  if (!row) throw scimNotFound(`User ${id} not found`);
  return row;
}

/** Locks the user for the rest of the transaction and reads it (404 if it is not this directory's). */
export async function lockUser(tx: Tx, directoryId: string, id: string): Promise<UserRow> {
  if (!isUuid(id)) throw scimNotFound(`User ${id} not found`);
  await tx.$queryRawUnsafe(`SELECT 1 FROM directory_users WHERE id = $1::uuid AND directory_id = $2::uuid FOR UPDATE`, id, directoryId);
  const row = await tx.directoryUser.findFirst({ where: { id, directoryId } });
  if (!row) throw scimNotFound(`User ${id} not found`);
  return row;
}

/**
 * A page of the directory's users matching `where` (SQL over alias `r`, its params after
 * `$1` = the directory id), oldest first, and how many match in all.
 */
export async function listUsers(
  db: Database,
  where: string | null,
  /** `$1` the directory id, then the filter's values. */
  params: unknown[],
  offset: number,
  limit: number,
): Promise<{ total: number; rows: UserRow[] }> {
  const condition = `r.directory_id = $1::uuid${where ? ` AND (${where})` : ""}`;
  const [{ total }] = (await db.sql.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM directory_users r WHERE ${condition}`,
    params,
  )) as [{ total: number }];
  if (limit === 0 || offset >= total) return { total, rows: [] };
  const ids = await db.sql.query<{ id: string }>(
    `SELECT r.id FROM directory_users r WHERE ${condition} ORDER BY r.created_at, r.id OFFSET ${offset} LIMIT ${limit}`,
    params,
  );
  const rows = await db.prisma.directoryUser.findMany({ where: { id: { in: ids.map((r) => r.id) } } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return { total, rows: ids.flatMap(({ id }) => byId.get(id) ?? []) };
}

/** Each user's groups (id, display name), for `groups` and the events' payload. */
export async function groupsOfUsers(
  db: Pick<Database, "prisma"> | { prisma: Tx },
  userIds: string[],
): Promise<Map<string, { id: string; name: string }[]>> {
  const groups = new Map<string, { id: string; name: string }[]>(userIds.map((id) => [id, []]));
  if (!userIds.length) return groups;
  const rows = await db.prisma.directoryGroupMember.findMany({
    where: { userId: { in: userIds } },
    select: { userId: true, group: { select: { id: true, displayName: true } } },
    orderBy: [{ createdAt: "asc" }, { groupId: "asc" }],
  });
  for (const row of rows) groups.get(row.userId)?.push({ id: row.group.id, name: row.group.displayName });
  return groups;
}

/**
 * Users with their groups, as the events present them, in one statement: a PATCH adding a
 * thousand members presents a thousand users (Prisma's findMany and its relation load took ~350 ms).
 */
export async function usersWithGroups(
  tx: Tx,
  ids: string[],
): Promise<Map<string, { row: UserRow; groups: { id: string; name: string }[] }>> {
  if (!ids.length) return new Map();
  const rows = await tx.$queryRawUnsafe<
    (Omit<UserRow, "createdAt" | "updatedAt" | "deprovisionedAt"> & {
      createdAt: string;
      updatedAt: string;
      deprovisionedAt: string | null;
      groups: { id: string; name: string }[];
    })[]
  >(
    `SELECT u.id::text, u.directory_id::text AS "directoryId", u.tenant_id::text AS "tenantId", u.external_id AS "externalId",
            u.user_name AS "userName", u.user_name_lower AS "userNameLower", u.active, u.given_name AS "givenName",
            u.family_name AS "familyName", u.primary_email AS "primaryEmail", u.resource, u.version, u.user_id::text AS "userId", u.role,
            to_json(u.deprovisioned_at) #>> '{}' AS "deprovisionedAt", to_json(u.created_at) #>> '{}' AS "createdAt",
            to_json(u.updated_at) #>> '{}' AS "updatedAt",
            coalesce((SELECT json_agg(json_build_object('id', g.id, 'name', g.display_name) ORDER BY m.created_at, m.group_id)
                        FROM directory_group_members m JOIN directory_groups g ON g.id = m.group_id WHERE m.user_id = u.id), '[]'::json) AS groups
       FROM directory_users u WHERE u.id = ANY($1::uuid[])`,
    ids,
  );
  return new Map(
    rows.map(({ groups, ...row }) => [
      row.id,
      {
        row: {
          ...row,
          createdAt: new Date(row.createdAt),
          updatedAt: new Date(row.updatedAt),
          deprovisionedAt: row.deprovisionedAt ? new Date(row.deprovisionedAt) : null,
        },
        groups,
      },
    ]),
  );
}

export function insertUser(tx: Tx, directory: { id: string; tenantId: string }, resource: Json, columns: UserColumns): Promise<UserRow> {
  return tx.directoryUser.create({
    data: {
      directoryId: directory.id,
      tenantId: directory.tenantId,
      ...columns,
      resource: resource as Prisma.InputJsonObject,
      deprovisionedAt: columns.active ? null : new Date(),
    },
  });
}

/** Writes a changed user: its resource, columns, a new version; deprovisioned_at follows `active`. */
export function updateUser(tx: Tx, row: UserRow, resource: Json, columns: UserColumns): Promise<UserRow> {
  const deprovisionedAt = columns.active ? null : (row.deprovisionedAt ?? new Date());
  return tx.directoryUser.update({
    where: { id: row.id },
    data: { ...columns, resource: resource as Prisma.InputJsonObject, version: row.version + 1, updatedAt: new Date(), deprovisionedAt },
  });
}

/** The unique index on (directory_id, user_name_lower) refused the write (Prisma's P2002, or Postgres's 23505 through raw SQL). */
export function isUniqueViolation(error: unknown): boolean {
  const text = JSON.stringify((error as { meta?: unknown })?.meta ?? {}) + String((error as Error)?.message);
  return (error as { code?: string })?.code === "P2002" || text.includes("23505");
}

/** Whether two JSON values are equal regardless of key order (a PATCH that changes nothing). */
export function sameJson(a: unknown, b: unknown): boolean {
  return stable(a) === stable(b);
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stable(value[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}
