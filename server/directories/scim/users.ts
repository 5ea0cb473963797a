/**
 * `/Users`: create, read, list, replace, patch, delete. Every write runs in one transaction with
 * its events (directory actor) and the lifecycle seam (reconcileDirectoryUsers); a write that
 * changes nothing changes no version and emits nothing.
 */
import type { DirectoryUser as UserRow } from "../../db/generated/client.ts";
import type { Tx } from "../../db/client.ts";
import { sqlIn } from "../../db/client.ts";
import { emitEvent } from "../../events/emit.ts";
import type { EventType } from "../../events/types.ts";
import { reconcileDirectoryUsers } from "../lifecycle.ts";
import { presentDirectoryUser } from "../present.ts";
import { membersAmong } from "../read.ts";
import { SCIM_WRITE, type ScimContext } from "./context.ts";
import { mutability, ScimError, uniqueness } from "./errors.ts";
import { parseFilter } from "./filter.ts";
import { filterToSql } from "./filter-sql.ts";
import { applyPatch, parsePatchRequest } from "./patch.ts";
import {
  groupsOfUsers,
  findUser,
  isUniqueViolation,
  insertUser,
  listUsers,
  lockUser,
  sameJson,
  storedUser,
  updateUser,
  userColumns,
} from "./store-users.ts";
import { canonicalizeResource } from "./schema.ts";
import {
  assertIfMatch,
  DEFAULT_COUNT,
  jsonBody,
  listResponse,
  MAX_RESULTS,
  patchResponse,
  resourceResponse,
  scimResponse,
  type Outcome,
} from "./respond.ts";
import { pageOf, project, projectionOf, userResource, type ScimRef } from "./resource.ts";

type Json = Record<string, unknown>;

const refsOf = (ctx: ScimContext, groups: { id: string; name: string }[]): ScimRef[] =>
  groups.map((g) => ({ value: g.id, display: g.name, $ref: `${ctx.base}/Groups/${g.id}` }));

async function scimUser(ctx: ScimContext, row: UserRow) {
  const groups = (await groupsOfUsers(ctx.db, [row.id])).get(row.id) ?? [];
  return userResource(ctx.base, row, refsOf(ctx, groups));
}

export async function getUser(ctx: ScimContext, id: string): Promise<Outcome> {
  const { row, groups } = await findUser(ctx.db.sql, ctx.directory.id, id);
  const resource = userResource(ctx.base, row, refsOf(ctx, groups));
  return { response: { ...resourceResponse(200, resource), body: project(resource, projectionOf(ctx.request.query, "User")) } };
}

export async function listUsersOf(ctx: ScimContext): Promise<Outcome> {
  const { query } = ctx.request;
  const filter = query.get("filter");
  // $1 is the directory id; the filter's values follow it.
  const params: unknown[] = [ctx.directory.id];
  const where = filter ? filterToSql("User", parseFilter(filter), params) : null;
  const { startIndex, count } = pageOf(query, DEFAULT_COUNT, MAX_RESULTS);
  const { total, users } = await listUsers(ctx.db.sql, where, params, startIndex - 1, count);
  const projection = projectionOf(query, "User");
  const resources = users.map(({ row, groups }) => project(userResource(ctx.base, row, refsOf(ctx, groups)), projection));
  const note = `${filter ? `filter=${filter.slice(0, 200)} ` : ""}→ ${total} result${total === 1 ? "" : "s"}`;
  return { response: listResponse(resources, total, startIndex), note };
}

/** The body as the stored resource: canonical names, without id/meta/schemas/groups. */
function given(ctx: ScimContext, id?: string): Json {
  const body = jsonBody(ctx.request) as Json;
  const canonical = canonicalizeResource("User", body);
  if (id !== undefined && typeof body.id === "string" && body.id !== id) throw mutability("id cannot be changed");
  return storedUser(canonical);
}

async function presented(tx: Tx, row: UserRow) {
  const groups = (await groupsOfUsers({ prisma: tx }, [row.id])).get(row.id) ?? [];
  return presentDirectoryUser(row, groups, await membersAmong(tx, row.tenantId, [row]));
}

async function emitUser(
  ctx: ScimContext,
  tx: Tx,
  type: Exclude<Extract<EventType, `directory_user.${string}`>, "directory_user.deprovision_refused">,
  row: UserRow,
): Promise<void> {
  await emitEvent(sqlIn(tx), ctx.actor, {
    type,
    tenantId: ctx.directory.tenantId,
    target: { type: "directory_user", id: row.id, name: row.userName },
    details: { directory_id: ctx.directory.id, directory_user: await presented(tx, row) },
  });
}

/** userName is unique per directory in any case: the index says so, the IdP hears 409. */
async function unique<T>(userName: () => string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof ScimError) && isUniqueViolation(error))
      throw uniqueness(`userName ${userName()} is already taken in this directory`);
    throw error;
  }
}

export async function createUser(ctx: ScimContext): Promise<Outcome> {
  const resource = given(ctx);
  const columns = userColumns(resource);
  const row = await unique(
    () => columns.userName,
    () =>
      ctx.db.prisma.$transaction(async (tx) => {
        const created = await insertUser(tx, ctx.directory, resource, columns);
        ctx.refusals.push(
          ...(await reconcileDirectoryUsers(tx, ctx.directory, [created.id], ctx.actor, {
            announce: () => emitUser(ctx, tx, "directory_user.created", created),
          })),
        );
        return created;
      }, SCIM_WRITE),
  );
  return { response: resourceResponse(201, userResource(ctx.base, row, []), true), note: columns.userName };
}

/** Writes `next` over the locked `row` if it differs; the events say what changed. */
async function change(ctx: ScimContext, tx: Tx, row: UserRow, next: Json): Promise<UserRow> {
  const columns = userColumns(next);
  const before = { ...storedUser(row.resource as Json), userName: row.userName, active: row.active };
  if (sameJson(before, { ...next, userName: columns.userName, active: columns.active })) return row;
  const updated = await updateUser(tx, row, next, columns);
  const others = (r: Json) => ({ ...r, active: undefined });
  const activeChanged = row.active !== updated.active;
  const announce = async () => {
    if (!activeChanged || !sameJson(others(before), others({ ...next, userName: columns.userName })))
      await emitUser(ctx, tx, "directory_user.updated", updated);
    if (activeChanged) await emitUser(ctx, tx, updated.active ? "directory_user.reactivated" : "directory_user.deactivated", updated);
  };
  ctx.refusals.push(...(await reconcileDirectoryUsers(tx, ctx.directory, [updated.id], ctx.actor, { announce })));
  return updated;
}

export async function replaceUser(ctx: ScimContext, id: string): Promise<Outcome> {
  const resource = given(ctx, id);
  return writeUser(ctx, id, () => resource);
}

export async function patchUser(ctx: ScimContext, id: string): Promise<Outcome> {
  const operations = parsePatchRequest(jsonBody(ctx.request));
  return writeUser(
    ctx,
    id,
    (row) => {
      const current = { ...storedUser(row.resource as Json), userName: row.userName, active: row.active };
      return storedUser(applyPatch("User", current, operations));
    },
    true,
  );
}

async function writeUser(ctx: ScimContext, id: string, next: (row: UserRow) => Json, patch = false): Promise<Outcome> {
  let userName = "";
  const row = await unique(
    () => userName,
    () =>
      ctx.db.prisma.$transaction(async (tx) => {
        const current = await lockUser(tx, ctx.directory.id, id);
        assertIfMatch(ctx.request.ifMatch, current.version);
        const resource = next(current);
        userName = String(resource.userName ?? "");
        return change(ctx, tx, current, resource);
      }, SCIM_WRITE),
  );
  const resource = await scimUser(ctx, row);
  const body = project(resource, projectionOf(ctx.request.query, "User"));
  const response = patch ? patchResponse(ctx.directory.provider, resource, body) : { ...resourceResponse(200, resource), body };
  return { response, note: row.userName };
}

/** Deactivated first and deprovisioned through the lifecycle (`deleting`), then removed. */
export async function deleteUser(ctx: ScimContext, id: string): Promise<Outcome> {
  const userName = await ctx.db.prisma.$transaction(async (tx) => {
    const row = await lockUser(tx, ctx.directory.id, id);
    assertIfMatch(ctx.request.ifMatch, row.version);
    const inactive = row.active
      ? await tx.directoryUser.update({ where: { id: row.id }, data: { active: false, deprovisionedAt: new Date() } })
      : row;
    ctx.refusals.push(...(await reconcileDirectoryUsers(tx, ctx.directory, [row.id], ctx.actor, { deleting: true })));
    await emitUser(ctx, tx, "directory_user.deleted", inactive);
    await tx.directoryUser.delete({ where: { id: row.id } });
    return row.userName;
  }, SCIM_WRITE);
  return { response: scimResponse(204, null), note: userName };
}
