/**
 * The memberships step of reconciling (server/directories/lifecycle.ts): makes each person's
 * membership what the tenant's directories say, for the memberships a directory governs, and
 * deprovisions those who left. The last-admin rule (server/members/admins.ts) is asked before every
 * change that takes admin away; a change it refuses is not made, and is audited as
 * `directory_user.deprovision_refused` and answered to the caller (the SCIM request's log line).
 */
import type { Directory as DirectoryRow } from "../db/generated/client.ts";
import { sqlIn, type Tx } from "../db/client.ts";
import { emitActorEvents, type EventActor } from "../events/emit.ts";
import type { TenantRole } from "../auth/principal.ts";
import {
  TenantAdmins,
  changeMemberRolesIn,
  createMembershipsIn,
  governMembershipsIn,
  removeMembershipsIn,
  type MemberRef,
  type NewMembership,
} from "../members/index.ts";
import { deprovision, type Leaver } from "./lifecycle-deprovision.ts";

/** What the tenant's directories together say about one person (an email in a verified domain). */
export interface Person {
  email: string;
  active: boolean;
  role: TenantRole | null;
  /** The directories where the person is active, this call's first. */
  directories: string[];
  /** Whether one of the person's directories governs members who joined another way. */
  governsExisting: boolean;
}

export interface ConsoleUser {
  id: string;
  email: string;
  created?: boolean;
}

/** A change the last-admin rule refused: the person keeps their membership and role. */
export interface Refusal {
  email: string;
  userId: string;
  directoryUserId: string | null;
  action: "remove" | "demote";
}

type Member = MemberRef & { directoryId: string | null };

export async function applyToMemberships(
  tx: Tx,
  directory: DirectoryRow,
  people: Map<string, Person>,
  users: Map<string, ConsoleUser>,
  actor: EventActor,
  decided: readonly { id: string; email: string | null }[],
): Promise<Refusal[]> {
  const { tenantId } = directory;
  if (people.size === 0) return [];
  const linked = [...users.values()];
  const admins = await TenantAdmins.lock(tx, tenantId);
  const memberships = linked.length
    ? await tx.membership.findMany({
        where: { tenantId, userId: { in: linked.map((u) => u.id) } },
        select: { userId: true, role: true, directoryId: true, user: { select: { email: true } } },
      })
    : [];
  const memberOf = new Map<string, Member>(memberships.map((m) => [m.userId, m]));
  const details = { method: "directory", directory_id: directory.id };
  const plan = {
    joining: [] as NewMembership[],
    governing: [] as { member: Member; directoryId: string }[],
    changing: [] as { member: MemberRef; role: TenantRole; details: typeof details }[],
    dropping: [] as { member: MemberRef; details: Record<string, unknown> }[],
    leavers: [] as Leaver[],
    refused: [] as Refusal[],
  };
  const refuse = (person: Person, user: ConsoleUser, action: Refusal["action"]) =>
    plan.refused.push({
      email: person.email,
      userId: user.id,
      directoryUserId: decided.find((d) => d.email === person.email)?.id ?? null,
      action,
    });

  // Who gains admin first, so a swap of admins in one change is not refused; then who left (a person
  // who left leaves, if anyone may); then who changes role.
  const rank = (p: Person) => (p.active && p.role === "admin" ? 0 : p.active ? 2 : 1);
  const ordered = [...people.values()].sort((a, b) => rank(a) - rank(b));
  for (const person of ordered) {
    const user = users.get(person.email) ?? null;
    const member = user ? (memberOf.get(user.id) ?? null) : null;
    // A directory governs the memberships it made or captured, and (opted in) every member it links.
    const governed = member !== null && (member.directoryId !== null || person.governsExisting);
    if (!person.active) {
      if (user && member && governed && !admins.allows(user.id, null)) refuse(person, user, "remove");
      else plan.leavers.push({ email: person.email, user, member, keepsMembership: member !== null && !governed });
      continue;
    }
    if (!user) continue;
    const governing = member?.directoryId && person.directories.includes(member.directoryId) ? member.directoryId : person.directories[0];
    if (!member) {
      if (!person.role) continue;
      admins.allows(user.id, person.role);
      plan.joining.push({
        user,
        role: person.role,
        directoryId: governing ?? directory.id,
        details: { ...details, new_user: user.created ?? false },
      });
      continue;
    }
    if (!governed) continue;
    if (governing) plan.governing.push({ member, directoryId: governing });
    if (member.role === person.role) continue;
    if (!admins.allows(user.id, person.role)) refuse(person, user, person.role ? "demote" : "remove");
    else if (person.role) plan.changing.push({ member, role: person.role, details });
    else plan.dropping.push({ member, details: { ...details, reason: "no_role" } });
  }

  await createMembershipsIn(tx, actor, tenantId, plan.joining);
  await governMembershipsIn(tx, actor, tenantId, plan.governing);
  await changeMemberRolesIn(tx, actor, tenantId, plan.changing);
  await removeMembershipsIn(tx, actor, tenantId, plan.dropping);
  await deprovision(tx, tenantId, plan.leavers, actor, directory.id);
  await auditRefusals(tx, actor, directory, plan.refused);
  return plan.refused;
}

async function auditRefusals(tx: Tx, actor: EventActor, directory: DirectoryRow, refused: readonly Refusal[]): Promise<void> {
  await emitActorEvents(
    sqlIn(tx),
    refused.map((r) => ({
      actor,
      event: {
        type: "directory_user.deprovision_refused",
        tenantId: directory.tenantId,
        target: r.directoryUserId
          ? { type: "directory_user", id: r.directoryUserId, name: r.email }
          : { type: "user", id: r.userId, name: r.email },
        details: {
          directory_id: directory.id,
          email: r.email,
          user_id: r.userId,
          action: r.action,
          reason: "last_admin",
          detail: `${r.email} is the tenant's last admin: the membership stays until another member is made admin`,
        },
      },
    })),
  );
}
