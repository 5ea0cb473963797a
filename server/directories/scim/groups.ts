/**
 * `/Groups`. Members live in `directory_group_members`: a write loads them into the resource,
 * applies the change, then diffs old and new member ids into one batched insert and one batched
 * delete, with one `directory_group.user_added`/`user_removed` per member changed. Member ids that
 * name no user of this directory are ignored (Entra ID may push a group before its members), and the
 * request log's summary counts them. A group may have tens of thousands of members: a PATCH works
 * on their ids by Set and Map, in turns (applyPatchInTurns), and writes their events in batches.
 */
import type { DirectoryGroup as GroupRow } from "../../db/generated/client.ts";
import type { Tx } from "../../db/client.ts";
import { sqlIn } from "../../db/client.ts";
import { emitEvent, emitEvents, type EventInput } from "../../events/emit.ts";
import { reconcileDirectoryUsers } from "../lifecycle.ts";
import { presentDirectoryGroup, presentDirectoryUser } from "../present.ts";
import { SCIM_WRITE, type ScimContext } from "./context.ts";
import { mutability } from "./errors.ts";
import { parseFilter } from "./filter.ts";
import { filterToSql } from "./filter-sql.ts";
import { DEFAULT_COUNT, MAX_RESULTS } from "./limits.ts";
import { applyPatchInTurns, nextTurn, parsePatchRequest, type PatchOperation } from "./patch.ts";
import { canonicalizeResource } from "./schema.ts";
import { sameJson, usersWithGroups } from "./store-users.ts";
import * as store from "./store-groups.ts";
import { assertIfMatch, jsonBody, listResponse, patchResponse, resourceResponse, scimResponse, type Outcome } from "./respond.ts";
import { groupResource, pageOf, project, projectionOf, type ScimRef } from "./resource.ts";

type Json = Record<string, unknown>;

const refsOf = (ctx: ScimContext, members: store.Member[]): ScimRef[] =>
  members.map((m) => ({ ...m, $ref: `${ctx.base}/Users/${m.value}` }));

const wantsMembers = (ctx: ScimContext) => {
  const { attributes, excluded } = projectionOf(ctx.request.query, "Group");
  return !excluded.includes("members") && (!attributes || attributes.some((a) => a.split(".")[0] === "members"));
};

async function scimGroup(ctx: ScimContext, row: GroupRow) {
  return groupResource(ctx.base, row, await store.memberRefsOf(ctx.db.sql, row.id, ctx.base));
}

export async function getGroup(ctx: ScimContext, id: string): Promise<Outcome> {
  const row = await store.findGroup(ctx.db, ctx.directory.id, id);
  const resource = wantsMembers(ctx) ? await scimGroup(ctx, row) : groupResource(ctx.base, row, null);
  return { response: { ...resourceResponse(200, resource), body: project(resource, projectionOf(ctx.request.query, "Group")) } };
}

export async function listGroupsOf(ctx: ScimContext): Promise<Outcome> {
  const { query } = ctx.request;
  const filter = query.get("filter");
  // $1 is the directory id; the filter's values follow it.
  const params: unknown[] = [ctx.directory.id];
  const where = filter ? filterToSql("Group", parseFilter(filter), params) : null;
  const { startIndex, count } = pageOf(query, DEFAULT_COUNT, MAX_RESULTS);
  const { total, rows } = await store.listGroups(ctx.db.sql, where, params, startIndex - 1, count);
  // Entra ID lists with excludedAttributes=members: then no member is read at all.
  const members = wantsMembers(ctx)
    ? await store.membersOf(
        ctx.db.sql,
        rows.map((r) => r.id),
      )
    : null;
  const projection = projectionOf(query, "Group");
  const resources = rows.map((row) =>
    project(groupResource(ctx.base, row, members ? refsOf(ctx, members.get(row.id) ?? []) : null), projection),
  );
  const note = `${filter ? `filter=${filter.slice(0, 200)} ` : ""}→ ${total} result${total === 1 ? "" : "s"}`;
  return { response: listResponse(resources, total, startIndex), note };
}

function given(ctx: ScimContext, id?: string): Json {
  const body = jsonBody(ctx.request) as Json;
  if (id !== undefined && typeof body.id === "string" && body.id !== id) throw mutability("id cannot be changed");
  return canonicalizeResource("Group", body);
}

/** What a write did to the members, for the events, the lifecycle and the log. */
interface MemberChange {
  added: string[];
  removed: string[];
  ignored: number;
}

async function writeMembers(ctx: ScimContext, tx: Tx, group: GroupRow, before: string[], wanted: string[]): Promise<MemberChange> {
  const had = new Set(before);
  const fresh = wanted.filter((id) => !had.has(id));
  const known = await store.knownUsers(tx, ctx.directory.id, fresh);
  const added = fresh.filter((id) => known.has(id));
  const keep = new Set(wanted);
  const removed = before.filter((id) => !keep.has(id));
  await store.addMembers(tx, group, added);
  await store.removeMembers(tx, group.id, removed);
  return { added, removed, ignored: fresh.length - added.length };
}

/** Member events written at once: a thousand users' payloads in one go would hold the event loop. */
const EVENT_BATCH = 100;

/** One user_added/user_removed per member changed (payload: the user, with its groups now, and the group), in that order. */
async function emitMemberEvents(ctx: ScimContext, tx: Tx, group: GroupRow, change: MemberChange): Promise<void> {
  type Kind = "directory_group.user_added" | "directory_group.user_removed";
  const changes: [Kind, string][] = [
    ...change.added.map((id): [Kind, string] => ["directory_group.user_added", id]),
    ...change.removed.map((id): [Kind, string] => ["directory_group.user_removed", id]),
  ];
  if (!changes.length) return;
  const [{ n }] = (await tx.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM directory_group_members WHERE group_id = $1::uuid`,
    group.id,
  )) as [{ n: number }];
  const presentedGroup = presentDirectoryGroup(group, n);
  for (let start = 0; start < changes.length; start += EVENT_BATCH) {
    const batch = changes.slice(start, start + EVENT_BATCH);
    const users = await usersWithGroups(
      sqlIn(tx),
      batch.map(([, id]) => id),
    );
    const events = batch.flatMap(([type, id]): EventInput[] => {
      const found = users.get(id);
      if (!found) return [];
      return [
        {
          type,
          tenantId: ctx.directory.tenantId,
          target: { type: "directory_user", id, name: found.row.userName },
          details: {
            directory_id: ctx.directory.id,
            directory_user: presentDirectoryUser(found.row, found.groups),
            directory_group: presentedGroup,
          },
        },
      ];
    });
    await emitEvents(sqlIn(tx), ctx.actor, events);
  }
}

async function emitGroup(
  ctx: ScimContext,
  tx: Tx,
  type: "directory_group.created" | "directory_group.updated" | "directory_group.deleted",
  row: GroupRow,
): Promise<void> {
  const count = await tx.directoryGroupMember.count({ where: { groupId: row.id } });
  await emitEvent(sqlIn(tx), ctx.actor, {
    type,
    tenantId: ctx.directory.tenantId,
    target: { type: "directory_group", id: row.id, name: row.displayName },
    details: { directory_id: ctx.directory.id, directory_group: presentDirectoryGroup(row, count) },
  });
}

const ignoredNote = (change: MemberChange) =>
  change.ignored ? `, ${change.ignored} unknown member id${change.ignored === 1 ? "" : "s"} ignored` : "";

export async function createGroup(ctx: ScimContext): Promise<Outcome> {
  const resource = given(ctx);
  const columns = store.groupColumns(resource);
  const wanted = store.memberIdsOf(resource);
  const { row, change } = await ctx.db.prisma.$transaction(async (tx) => {
    const created = await store.insertGroup(tx, ctx.directory, store.storedGroup(resource), columns);
    const change = await writeMembers(ctx, tx, created, [], wanted);
    ctx.refusals.push(
      ...(await reconcileDirectoryUsers(tx, ctx.directory, change.added, ctx.actor, {
        announce: async () => {
          await emitGroup(ctx, tx, "directory_group.created", created);
          await emitMemberEvents(ctx, tx, created, change);
        },
      })),
    );
    return { row: created, change };
  }, SCIM_WRITE);
  const note = `${columns.displayName} (${change.added.length} members${ignoredNote(change)})`;
  return { response: resourceResponse(201, await scimGroup(ctx, row), true), note };
}

export async function replaceGroup(ctx: ScimContext, id: string): Promise<Outcome> {
  const resource = given(ctx, id);
  // A PUT replaces the whole resource: without `members`, the group has none.
  return writeGroup(ctx, id, () => resource);
}

/**
 * Member ids sent bare (`"value": "id"` or `["id", …]` for path `members`, as Microsoft's test
 * collection does) are taken as `[{value: id}]`, the form RFC 7643 gives members.
 */
function bareMembers(operation: PatchOperation): PatchOperation {
  if (operation.path?.toLowerCase() !== "members") return operation;
  const asRef = (value: unknown) => (typeof value === "string" ? { value } : value);
  const { value } = operation;
  if (typeof value === "string") return { ...operation, value: [{ value }] };
  if (Array.isArray(value)) return { ...operation, value: value.map(asRef) };
  return operation;
}

export async function patchGroup(ctx: ScimContext, id: string): Promise<Outcome> {
  const body = jsonBody(ctx.request);
  // Reading a body of a MiB and then checking it are two long steps: others are served between them.
  await nextTurn();
  const operations = parsePatchRequest(body).map(bareMembers);
  const patched = (row: GroupRow, members: string[]) =>
    applyPatchInTurns(
      "Group",
      { ...(row.resource as Json), displayName: row.displayName, members: members.map((value) => ({ value })) },
      operations,
    );
  return writeGroup(ctx, id, patched, true);
}

async function writeGroup(
  ctx: ScimContext,
  id: string,
  next: (row: GroupRow, members: string[]) => Json | Promise<Json>,
  patch = false,
): Promise<Outcome> {
  const { row, change } = await ctx.db.prisma.$transaction(async (tx) => {
    const current = await store.lockGroup(tx, ctx.directory.id, id);
    assertIfMatch(ctx.request.ifMatch, current.version);
    const before = await store.memberIdsOfGroup(tx, current.id);
    const resource = await next(current, before);
    const columns = store.groupColumns(resource);
    const stored = store.storedGroup(resource);
    const wanted = store.memberIdsOf(resource);
    // Each step above and below is a pass over every member: others are served between them.
    await nextTurn();
    const change = await writeMembers(ctx, tx, current, before, wanted);
    const attributesChanged = !sameJson(
      { ...(current.resource as Json), displayName: current.displayName },
      { ...stored, displayName: columns.displayName },
    );
    const membersChanged = change.added.length + change.removed.length > 0;
    let row = current;
    if (attributesChanged) row = await store.updateGroup(tx, current, stored, columns);
    else if (membersChanged) row = await store.touchGroup(tx, current);
    if (attributesChanged) await emitGroup(ctx, tx, "directory_group.updated", row);
    await emitMemberEvents(ctx, tx, row, change);
    // A rename can change every member's mapped role; a membership change, those it touched.
    const renamed = row.displayName !== current.displayName || row.externalId !== current.externalId;
    const affected = renamed ? [...new Set([...before, ...change.added])] : [...change.added, ...change.removed];
    if (affected.length) ctx.refusals.push(...(await reconcileDirectoryUsers(tx, ctx.directory, affected, ctx.actor)));
    return { row, change };
  }, SCIM_WRITE);
  const note = `${row.displayName} (+${change.added.length} −${change.removed.length} members${ignoredNote(change)})`;
  const resource = wantsMembers(ctx) ? await scimGroup(ctx, row) : groupResource(ctx.base, row, null);
  const body = project(resource, projectionOf(ctx.request.query, "Group"));
  const response = patch ? patchResponse(ctx.directory.provider, resource, body) : { ...resourceResponse(200, resource), body };
  return { response, note };
}

export async function deleteGroup(ctx: ScimContext, id: string): Promise<Outcome> {
  const name = await ctx.db.prisma.$transaction(async (tx) => {
    const row = await store.lockGroup(tx, ctx.directory.id, id);
    assertIfMatch(ctx.request.ifMatch, row.version);
    const members = await store.memberIdsOfGroup(tx, row.id);
    await emitGroup(ctx, tx, "directory_group.deleted", row);
    await tx.directoryGroup.delete({ where: { id: row.id } });
    // Its members may lose the role it mapped to.
    ctx.refusals.push(...(await reconcileDirectoryUsers(tx, ctx.directory, members, ctx.actor)));
    return row.displayName;
  }, SCIM_WRITE);
  return { response: scimResponse(204, null), note: name };
}
