/**
 * Directory users in the database: the indexed columns derived from the canonical resource,
 * reads (one, a filtered page, their groups) and the row writes of the SCIM handlers.
 */
import type { Database, Tx } from "../../db/client.ts";
import type { SqlStatements } from "../../db/sql.ts";
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

export async function findUser(sql: SqlStatements, directoryId: string, id: string): Promise<UserWithGroups> {
  const [raw] = isUuid(id)
    ? await sql.query<RawUser>(`SELECT ${USER_WITH_GROUPS} FROM directory_users r WHERE r.id = $1::uuid AND r.directory_id = $2::uuid`, [
        id,
        directoryId,
      ])
    : [];
  if (!raw) throw scimNotFound(`User ${id} not found`);
  return fromRaw(raw);
}

/**
 * Locks the user for the rest of the transaction and reads it (404 if it is not this directory's).
 * NO KEY: a group write adding this user as a member (a foreign key's KEY SHARE) is not held up.
 */
export async function lockUser(tx: Tx, directoryId: string, id: string): Promise<UserRow> {
  if (!isUuid(id)) throw scimNotFound(`User ${id} not found`);
  await tx.$queryRawUnsafe(
    `SELECT 1 FROM directory_users WHERE id = $1::uuid AND directory_id = $2::uuid FOR NO KEY UPDATE`,
    id,
    directoryId,
  );
  const row = await tx.directoryUser.findFirst({ where: { id, directoryId } });
  if (!row) throw scimNotFound(`User ${id} not found`);
  return row;
}

/** A user row with its groups (id, display name), as the events present them and `groups` shows them. */
export interface UserWithGroups {
  row: UserRow;
  groups: { id: string; name: string }[];
}

/**
 * The columns of a user row over alias `r` under the model's names, and its groups as JSON, for
 * raw reads: one statement where Prisma's findMany and its relation load took two (and ~350 ms
 * for the thousand users a PATCH of members presents).
 */
const USER_WITH_GROUPS = `r.id::text, r.directory_id::text AS "directoryId", r.tenant_id::text AS "tenantId", r.external_id AS "externalId",
  r.user_name AS "userName", r.user_name_lower AS "userNameLower", r.active, r.given_name AS "givenName",
  r.family_name AS "familyName", r.primary_email AS "primaryEmail", r.resource, r.version, r.user_id::text AS "userId", r.role,
  to_json(r.deprovisioned_at) #>> '{}' AS "deprovisionedAt", to_json(r.created_at) #>> '{}' AS "createdAt",
  to_json(r.updated_at) #>> '{}' AS "updatedAt",
  coalesce((SELECT json_agg(json_build_object('id', g.id, 'name', g.display_name) ORDER BY m.created_at, m.group_id)
              FROM directory_group_members m JOIN directory_groups g ON g.id = m.group_id WHERE m.user_id = r.id), '[]'::json) AS groups`;

type RawUser = Omit<UserRow, "createdAt" | "updatedAt" | "deprovisionedAt"> & {
  createdAt: string;
  updatedAt: string;
  deprovisionedAt: string | null;
  groups: { id: string; name: string }[];
};

function fromRaw({ groups, ...row }: RawUser): UserWithGroups {
  return {
    row: {
      ...row,
      createdAt: new Date(row.createdAt),
      updatedAt: new Date(row.updatedAt),
      deprovisionedAt: row.deprovisionedAt ? new Date(row.deprovisionedAt) : null,
    },
    groups,
  };
}

/**
 * A page of the directory's users matching `where` (SQL over alias `r`, from filterToSql), oldest
 * first, and how many match in all: one statement (a page past the end counts apart).
 */
export async function listUsers(
  sql: SqlStatements,
  where: string | null,
  /** `$1` the directory id, then the filter's values. */
  params: unknown[],
  offset: number,
  limit: number,
): Promise<{ total: number; users: UserWithGroups[] }> {
  const condition = `r.directory_id = $1::uuid${where ? ` AND (${where})` : ""}`;
  const rows =
    limit === 0
      ? []
      : await sql.query<RawUser & { total: number }>(
          `SELECT ${USER_WITH_GROUPS}, count(*) OVER ()::int AS total FROM directory_users r WHERE ${condition}
            ORDER BY r.created_at, r.id OFFSET ${offset} LIMIT ${limit}`,
          params,
        );
  if (rows.length) return { total: rows[0]!.total, users: rows.map(({ total: _total, ...row }) => fromRaw(row)) };
  const [{ total }] = (await sql.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM directory_users r WHERE ${condition}`,
    params,
  )) as [{ total: number }];
  return { total, users: [] };
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

/** Users with their groups, by id (those of another directory included: callers pass ids they checked). */
export async function usersWithGroups(sql: SqlStatements, ids: string[]): Promise<Map<string, UserWithGroups>> {
  if (!ids.length) return new Map();
  const rows = await sql.query<RawUser>(`SELECT ${USER_WITH_GROUPS} FROM directory_users r WHERE r.id = ANY($1::uuid[])`, [ids]);
  return new Map(rows.map((raw) => [raw.id, fromRaw(raw)]));
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
