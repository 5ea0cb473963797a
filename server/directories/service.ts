/**
 * Directories of a tenant: a tenant admin makes one per IdP connection and gets its SCIM base URL
 * and a bearer token (shown once, stored hashed), then edits how its groups map to console roles,
 * rotates the token (the old one stops at once), disables or deletes it. A directory and its token
 * are an admin's power (the token writes people into the tenant and takes them out): creating one,
 * changing what it grants (`default_role`, `role_mappings`, `governs_existing_members`), rotating
 * its token and deleting it need a fresh step-up, as SSO trust changes do.
 *
 * The admin is the actor of every event here; what the IdP does through SCIM is the directory's.
 */
import type { Directory as DirectoryRow } from "../db/generated/client.ts";
import { sqlIn, type Tx } from "../db/client.ts";
import { keysetPage, keysetWhere, type PageRequest } from "../db/keyset.ts";
import { isUuid } from "../db/ids.ts";
import { NotFound } from "../errors.ts";
import { clock } from "../clock.ts";
import { appUrl } from "../env.ts";
import { assertSteppedUp } from "../auth/step-up.ts";
import { actorOf, emitEvent, type EventActor } from "../events/emit.ts";
import { flips, patchEvents, type Changes } from "../events/patch-events.ts";
import type { TenantServiceContext } from "../service-context.ts";
import { reconcileDirectoryUsers } from "./lifecycle.ts";
import { newDirectoryToken } from "./token.ts";
import type {
  CreateDirectoryInput,
  Directory,
  DirectoryProvider,
  DirectoryRole,
  DirectoryWithToken,
  RoleMapping,
  UpdateDirectoryInput,
} from "./schemas.ts";

export interface DirectoryCounts {
  users: number;
  groups: number;
}

const target = (row: { id: string; name: string }) => ({ type: "directory", id: row.id, name: row.name });
const eventActor = (ctx: TenantServiceContext): EventActor => actorOf(ctx.actor.principal, ctx.actor.request);

/** Where the IdP sends SCIM requests for this directory. */
export const scimBaseUrl = (id: string) => `${appUrl()}/api/scim/v2/${id}`;

/** The stored mappings as `{group, role}` (jsonb keeps an object's keys in its own order). */
const roleMappingsOf = (row: DirectoryRow): RoleMapping[] =>
  Array.isArray(row.roleMappings) ? (row.roleMappings as RoleMapping[]).map(({ group, role }) => ({ group, role })) : [];

/** The REST shape of a directory; with `token`, the one answer that shows it (create, rotate). */
export function presentDirectory(row: DirectoryRow, counts: DirectoryCounts): Directory;
export function presentDirectory(row: DirectoryRow, counts: DirectoryCounts, token: string): DirectoryWithToken;
export function presentDirectory(row: DirectoryRow, counts: DirectoryCounts, token?: string): Directory | DirectoryWithToken {
  const directory: Directory = {
    id: row.id,
    tenant_id: row.tenantId,
    name: row.name,
    provider: row.provider as DirectoryProvider,
    enabled: row.enabled,
    scim_base_url: scimBaseUrl(row.id),
    token_hint: row.tokenHint,
    default_role: row.defaultRole as DirectoryRole | null,
    role_mappings: roleMappingsOf(row),
    governs_existing_members: row.governsExistingMembers,
    user_count: counts.users,
    group_count: counts.groups,
    last_request_at: row.lastRequestAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
  return token === undefined ? directory : { ...directory, token };
}

/** How many users and groups each directory holds (ids not found count zero). */
export async function directoryCounts(db: Tx, ids: readonly string[]): Promise<Map<string, DirectoryCounts>> {
  const directoryId = { in: [...ids] };
  const [users, groups] = await Promise.all([
    db.directoryUser.groupBy({ by: ["directoryId"], where: { directoryId }, _count: { _all: true } }),
    db.directoryGroup.groupBy({ by: ["directoryId"], where: { directoryId }, _count: { _all: true } }),
  ]);
  const counts = new Map(ids.map((id) => [id, { users: 0, groups: 0 }]));
  for (const row of users) counts.get(row.directoryId)!.users = row._count._all;
  for (const row of groups) counts.get(row.directoryId)!.groups = row._count._all;
  return counts;
}

/** A directory as the API shows it, with its counts read now. */
export async function directoryView(ctx: TenantServiceContext, row: DirectoryRow): Promise<Directory> {
  const counts = await directoryCounts(ctx.db.prisma, [row.id]);
  return presentDirectory(row, counts.get(row.id)!);
}

export async function listDirectories({ db: { prisma: db }, tenantId }: TenantServiceContext, page: PageRequest) {
  const result = await keysetPage<DirectoryRow>(page, {
    key: (row) => ({ at: row.createdAt, id: row.id }),
    count: () => db.directory.count({ where: { tenantId } }),
    find: ({ after, order, skip, take }) =>
      db.directory.findMany({
        where: { AND: [{ tenantId }, keysetWhere("createdAt", after, order)] },
        orderBy: [{ createdAt: order }, { id: order }],
        skip,
        take,
      }),
  });
  const counts = await directoryCounts(
    db,
    result.items.map((row) => row.id),
  );
  return { ...result, items: result.items.map((row) => ({ row, counts: counts.get(row.id)! })) };
}

/** The directory in the tenant; 404 outside it (and for an id that is not a uuid). */
export async function getDirectory({ db, tenantId }: TenantServiceContext, id: string): Promise<DirectoryRow> {
  const row = isUuid(id) ? await db.prisma.directory.findFirst({ where: { id, tenantId } }) : null;
  if (!row) throw NotFound("Directory");
  return row;
}

/** Locks the tenant's directory for a change; 404 outside the tenant. */
async function lockDirectory(tx: Tx, tenantId: string, id: string): Promise<DirectoryRow> {
  if (isUuid(id)) await tx.$queryRaw`SELECT id FROM directories WHERE id = ${id}::uuid AND tenant_id = ${tenantId}::uuid FOR UPDATE`;
  const row = isUuid(id) ? await tx.directory.findFirst({ where: { id, tenantId } }) : null;
  if (!row) throw NotFound("Directory");
  return row;
}

export async function createDirectory(
  ctx: TenantServiceContext,
  input: CreateDirectoryInput,
): Promise<{ row: DirectoryRow; token: string }> {
  const { token, tokenHash, tokenHint } = newDirectoryToken();
  const now = clock.now();
  const row = await ctx.db.prisma.$transaction(async (tx) => {
    await assertSteppedUp(tx, ctx.actor.principal);
    const created = await tx.directory.create({
      data: {
        tenantId: ctx.tenantId,
        name: input.name,
        provider: input.provider ?? "generic",
        tokenHash,
        tokenHint,
        defaultRole: input.default_role ?? null,
        roleMappings: input.role_mappings ?? [],
        governsExistingMembers: input.governs_existing_members ?? false,
        createdAt: now,
        updatedAt: now,
      },
    });
    await emitEvent(sqlIn(tx), eventActor(ctx), {
      type: "directory.created",
      tenantId: ctx.tenantId,
      target: target(created),
      details: {
        name: created.name,
        provider: created.provider,
        default_role: created.defaultRole,
        role_mappings: roleMappingsOf(created),
        governs_existing_members: created.governsExistingMembers,
        token_hint: tokenHint,
      },
    });
    return created;
  });
  return { row, token };
}

/**
 * The fields a PATCH changes. Role mappings compare in order (the first match wins, so reordering
 * them is a change), which is why this is not events/patch-events' `patchChanges`.
 */
function directoryChanges(row: DirectoryRow, input: UpdateDirectoryInput): Changes {
  const fields: Record<string, { from: unknown; to: unknown }> = {
    name: { from: row.name, to: input.name },
    default_role: { from: row.defaultRole, to: input.default_role },
    role_mappings: { from: roleMappingsOf(row), to: input.role_mappings?.map(({ group, role }) => ({ group, role })) },
    governs_existing_members: { from: row.governsExistingMembers, to: input.governs_existing_members },
  };
  const changes: Changes = {};
  for (const [name, { from, to }] of Object.entries(fields)) {
    if (to !== undefined && JSON.stringify(to) !== JSON.stringify(from)) changes[name] = { from, to };
  }
  return changes;
}

/** The fields whose change alters what the directory grants: they need a fresh step-up, and recompute every user. */
const GRANTS = ["default_role", "role_mappings", "governs_existing_members"] as const;

/**
 * Applies a PATCH: `directory.updated` with what changed, `.enabled`/`.disabled` when `enabled`
 * flips, nothing at all when nothing changed. New mappings, a new default role or a change of
 * `governs_existing_members` need a fresh step-up, and recompute every user's role and membership
 * in the same transaction.
 */
export async function updateDirectory(ctx: TenantServiceContext, input: UpdateDirectoryInput): Promise<DirectoryRow> {
  return ctx.db.prisma.$transaction(async (tx) => {
    const row = await lockDirectory(tx, ctx.tenantId, input.directory_id);
    const changes = directoryChanges(row, input);
    const enabled = { from: row.enabled, to: input.enabled };
    if (!flips(enabled) && Object.keys(changes).length === 0) return row;
    const grants = GRANTS.some((field) => changes[field]);
    if (grants) await assertSteppedUp(tx, ctx.actor.principal);

    const updated = await tx.directory.update({
      where: { id: row.id },
      data: {
        name: input.name,
        enabled: input.enabled,
        defaultRole: input.default_role,
        roleMappings: input.role_mappings,
        governsExistingMembers: input.governs_existing_members,
        updatedAt: clock.now(),
      },
    });
    const actor = eventActor(ctx);
    const events = patchEvents("directory", {
      tenantId: ctx.tenantId,
      target: target(updated),
      label: { name: updated.name },
      changes,
      enabled,
    });
    for (const event of events) await emitEvent(sqlIn(tx), actor, event);
    // After the directory's own events, so the audit log reads the cause before the memberships it changes.
    if (grants) {
      const users = await tx.directoryUser.findMany({ where: { directoryId: row.id }, select: { id: true } });
      await reconcileDirectoryUsers(
        tx,
        updated,
        users.map((user) => user.id),
        actor,
      );
    }
    return updated;
  });
}

/** A new token, answered once; the old one stops opening the SCIM endpoint at once. Needs step-up. */
export async function rotateDirectoryToken(ctx: TenantServiceContext, id: string): Promise<{ row: DirectoryRow; token: string }> {
  return ctx.db.prisma.$transaction((tx) => rotateDirectoryTokenIn(tx, ctx, id));
}

/** rotateDirectoryToken in the caller's transaction (revoking a setup link rotates in the same step). */
export async function rotateDirectoryTokenIn(tx: Tx, ctx: TenantServiceContext, id: string): Promise<{ row: DirectoryRow; token: string }> {
  const { token, tokenHash, tokenHint } = newDirectoryToken();
  const current = await lockDirectory(tx, ctx.tenantId, id);
  await assertSteppedUp(tx, ctx.actor.principal);
  const row = await tx.directory.update({ where: { id: current.id }, data: { tokenHash, tokenHint, updatedAt: clock.now() } });
  await emitEvent(sqlIn(tx), eventActor(ctx), {
    type: "directory.token_rotated",
    tenantId: ctx.tenantId,
    target: target(row),
    details: { name: row.name, previous_token_hint: current.tokenHint, token_hint: tokenHint },
  });
  return { row, token };
}

/**
 * Deletes the directory. Its people are deprovisioned first (marked inactive, then the lifecycle
 * ends their memberships, tokens and sessions) in the same transaction, so no one keeps access
 * through a directory that no longer exists; its users, groups and log go with it. Needs step-up.
 */
export async function deleteDirectory(ctx: TenantServiceContext, id: string): Promise<void> {
  await ctx.db.prisma.$transaction(async (tx) => {
    const row = await lockDirectory(tx, ctx.tenantId, id);
    await assertSteppedUp(tx, ctx.actor.principal);
    const actor = eventActor(ctx);
    const users = await tx.directoryUser.findMany({ where: { directoryId: row.id }, select: { id: true } });
    const groups = await tx.directoryGroup.count({ where: { directoryId: row.id } });
    await tx.directoryUser.updateMany({ where: { directoryId: row.id, active: true }, data: { active: false } });
    await tx.directoryUser.updateMany({ where: { directoryId: row.id, deprovisionedAt: null }, data: { deprovisionedAt: clock.now() } });
    await reconcileDirectoryUsers(
      tx,
      row,
      users.map((user) => user.id),
      actor,
      { deleting: true },
    );
    await tx.directory.delete({ where: { id: row.id } });
    await emitEvent(sqlIn(tx), actor, {
      type: "directory.deleted",
      tenantId: ctx.tenantId,
      target: target(row),
      details: { name: row.name, provider: row.provider, user_count: users.length, group_count: groups },
    });
  });
}
