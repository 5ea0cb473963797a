/**
 * Memberships made, changed and ended in the caller's transaction, many at once, each with the
 * event the console's own change emits: the members service's steps, shared with a directory's
 * provisioning and deprovisioning (server/directories/lifecycle.ts).
 */
import { type Tx, sqlIn } from "../db/client.ts";
import type { TenantRole } from "../auth/principal.ts";
import { emitActorEvents, type EventActor } from "../events/emit.ts";

/** A membership to create, and what its `user.created` event adds to the usual details. */
export interface NewMembership {
  user: { id: string; email: string };
  role: TenantRole;
  /** The directory that makes it, and so governs it (server/directories/lifecycle.ts). */
  directoryId?: string | null;
  details?: Record<string, unknown>;
}

/** A member as the steps below need them. */
export interface MemberRef {
  userId: string;
  role: string;
  user: { email: string };
}

const userTarget = (userId: string, email: string) => ({ type: "user", id: userId, name: email });

/**
 * Makes each user a member with their role, in the caller's transaction, and emits `user.created`
 * for each (one statement each, however many). Shared with a directory's provisioning
 * (server/directories/lifecycle.ts), which may add a thousand members of a group at once.
 */
export async function createMembershipsIn(tx: Tx, actor: EventActor, tenantId: string, items: readonly NewMembership[]): Promise<void> {
  if (items.length === 0) return;
  // A membership another transaction made meanwhile (two SCIM requests about one person) is theirs,
  // event included: skipped here rather than failing this change.
  const made = await sqlIn(tx).query<{ user_id: string }>(
    `INSERT INTO memberships (tenant_id, user_id, role, directory_id)
     SELECT $1::uuid, v.user_id, v.role, v.directory_id FROM unnest($2::uuid[], $3::text[], $4::uuid[]) AS v(user_id, role, directory_id)
     ON CONFLICT (tenant_id, user_id) DO NOTHING RETURNING user_id::text AS user_id`,
    [tenantId, items.map((i) => i.user.id), items.map((i) => i.role), items.map((i) => i.directoryId ?? null)],
  );
  const inserted = new Set(made.map((m) => m.user_id));
  await emitActorEvents(
    sqlIn(tx),
    items
      .filter((i) => inserted.has(i.user.id))
      .map(({ user, role, details }) => ({
        actor,
        event: {
          type: "user.created",
          tenantId,
          target: userTarget(user.id, user.email),
          details: { email: user.email, role, ...details },
        },
      })),
  );
}

/**
 * Changes members' roles, in the caller's transaction, and emits `user.updated` for each as the
 * console's edit does. The caller holds the admins' lock and asked it (server/members/admins.ts).
 */
export async function changeMemberRolesIn(
  tx: Tx,
  actor: EventActor,
  tenantId: string,
  items: readonly { member: MemberRef; role: TenantRole; details?: Record<string, unknown> }[],
): Promise<void> {
  if (items.length === 0) return;
  for (const role of new Set(items.map((i) => i.role))) {
    const userIds = items.filter((i) => i.role === role).map((i) => i.member.userId);
    await tx.membership.updateMany({ where: { tenantId, userId: { in: userIds } }, data: { role } });
  }
  await emitActorEvents(
    sqlIn(tx),
    items.map(({ member, role, details }) => ({
      actor,
      event: {
        type: "user.updated",
        tenantId,
        target: userTarget(member.userId, member.user.email),
        details: { email: member.user.email, changes: { role: { from: member.role, to: role } }, ...details },
      },
    })),
  );
}

/**
 * Ends memberships in the caller's transaction and emits `user.removed` for each (whose subscriber
 * ends the member's SSO sessions of the tenant, server/account/sessions.ts). Shared with a
 * directory's deprovisioning, which may remove the last admin: a person who left leaves at once.
 */
export async function removeMembershipsIn(
  tx: Tx,
  actor: EventActor,
  tenantId: string,
  items: readonly { member: MemberRef; details?: Record<string, unknown> }[],
): Promise<void> {
  if (items.length === 0) return;
  await tx.membership.deleteMany({ where: { tenantId, userId: { in: items.map((i) => i.member.userId) } } });
  await emitActorEvents(
    sqlIn(tx),
    items.map(({ member, details }) => ({
      actor,
      event: {
        type: "user.removed",
        tenantId,
        target: userTarget(member.userId, member.user.email),
        details: { email: member.user.email, role: member.role, ...details },
      },
    })),
  );
}

/**
 * Hands memberships to the directory that governs them from now on: it captured them (it governs
 * existing members), or the one that did is being deleted and another of the person's directories
 * takes over. Emits `user.updated` with the change of `directory_id` for each.
 */
export async function governMembershipsIn(
  tx: Tx,
  actor: EventActor,
  tenantId: string,
  items: readonly { member: MemberRef & { directoryId: string | null }; directoryId: string }[],
): Promise<void> {
  const changing = items.filter((i) => i.member.directoryId !== i.directoryId);
  if (changing.length === 0) return;
  await sqlIn(tx).query(
    `UPDATE memberships m SET directory_id = v.directory_id
       FROM unnest($2::uuid[], $3::uuid[]) AS v(user_id, directory_id)
      WHERE m.tenant_id = $1::uuid AND m.user_id = v.user_id`,
    [tenantId, changing.map((i) => i.member.userId), changing.map((i) => i.directoryId)],
  );
  await emitActorEvents(
    sqlIn(tx),
    changing.map(({ member, directoryId }) => ({
      actor,
      event: {
        type: "user.updated",
        tenantId,
        target: userTarget(member.userId, member.user.email),
        details: { email: member.user.email, changes: { directory_id: { from: member.directoryId, to: directoryId } } },
      },
    })),
  );
}
