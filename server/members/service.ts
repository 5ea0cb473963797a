/**
 * Members of a tenant: who they are and their role. A tenant always keeps at least one admin, and
 * an existing account joins only by accepting an invitation (addMember).
 */
import { type Tx, sqlIn } from "../db/client.ts";
import { keysetPage, keysetWhere, type PageRequest } from "../db/keyset.ts";
import { Conflict, Forbidden, NotFound } from "../errors.ts";
import { TenantAdmins } from "./admins.ts";
import { hashPassword } from "../auth/password.ts";
import { isOperator } from "../auth/policy.ts";
import type { TenantRole } from "../auth/principal.ts";
import type { TenantServiceContext } from "../service-context.ts";
import { actorOf, emitEvent } from "../events/emit.ts";
import { createMembershipsIn, removeMembershipsIn } from "./memberships.ts";
import type { AddMemberInput, Member, MemberReviewReason, UpdateMemberInput } from "./schemas.ts";
import { isUuid } from "../db/ids.ts";
import { createInvitation } from "../invitations/index.ts";
import type { SentInvitation } from "../invitations/schemas.ts";

const withUser = {
  user: { select: { email: true, name: true, passwordHash: true } },
  directory: { select: { id: true, name: true } },
} as const;

interface MemberRow {
  tenantId: string;
  userId: string;
  role: string;
  displayName: string | null;
  reviewReason: string | null;
  createdAt: Date;
  user: { email: string; name: string | null; passwordHash: string | null };
  directory: { id: string; name: string } | null;
}

/** The member's name in this tenant: the one its admins gave them, else their account's own. */
const nameOf = (row: MemberRow) => row.displayName ?? row.user.name;

export function presentMember(row: MemberRow): Member {
  return {
    user_id: row.userId,
    tenant_id: row.tenantId,
    email: row.user.email,
    name: nameOf(row),
    role: row.role as TenantRole,
    has_password: row.user.passwordHash !== null,
    directory: row.directory,
    review_reason: row.reviewReason as MemberReviewReason | null,
    created_at: row.createdAt.toISOString(),
  };
}

export async function listMembers({ db: { prisma: db }, tenantId }: TenantServiceContext, page: PageRequest) {
  return keysetPage<MemberRow>(page, {
    key: (row) => ({ at: row.createdAt, id: row.userId }),
    count: () => db.membership.count({ where: { tenantId } }),
    find: ({ after, order, skip, take }) =>
      db.membership.findMany({
        where: { tenantId, ...keysetWhere("createdAt", after, order, "userId") },
        orderBy: [{ createdAt: order }, { userId: order }],
        include: withUser,
        skip,
        take,
      }),
  });
}

async function findMember(db: Tx, tenantId: string, userId: string): Promise<MemberRow> {
  const row = isUuid(userId)
    ? await db.membership.findUnique({ where: { tenantId_userId: { tenantId, userId } }, include: withUser })
    : null;
  if (!row) throw NotFound("Member");
  return row;
}

export async function getMember({ db, tenantId }: TenantServiceContext, userId: string): Promise<MemberRow> {
  return findMember(db.prisma, tenantId, userId);
}

/** What adding someone came to: they were added, or they were sent an invitation instead. */
export type Added = { member: MemberRow; invitation?: never } | { invitation: SentInvitation; member?: never };

/**
 * Adds someone to the tenant by email. Joining is the person's choice, so an existing account is
 * invited, never attached. A tenant admin invites in every case, new email or not: the answer is
 * then the same whether or not the email has an account, so it tells no tenant about the users of
 * another. Platform operators, who see every user anyway, create accounts for new emails at once;
 * the CLI (run by whoever holds the database) attaches existing accounts too.
 */
export async function addMember(ctx: TenantServiceContext, input: AddMemberInput): Promise<Added> {
  const { principal } = ctx.actor;
  const invite = async () => ({
    invitation: await createInvitation(ctx, { tenant_id: input.tenant_id, email: input.email, role: input.role }),
  });
  if (!isOperator(principal)) {
    // Refused rather than dropped: the admin would otherwise expect a password or name that was never set.
    const field = input.password !== undefined ? "password" : input.name !== undefined ? "name" : null;
    if (field)
      throw Forbidden(
        `Only platform operators set a new member's ${field}: tenant admins invite by email and role, and the person chooses their own name and password on accepting`,
      );
    return invite();
  }
  const member = await createMember(ctx, input, { attachExisting: principal.via === "system" });
  return member ? { member } : invite();
}

/** Creates the account and its membership; null when the email has an account that may not be attached. */
async function createMember(
  { db, actor, tenantId }: TenantServiceContext,
  input: AddMemberInput,
  { attachExisting }: { attachExisting: boolean },
): Promise<MemberRow | null> {
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return db.prisma.$transaction(async (tx) => {
    const existing = await tx.user.findUnique({ where: { email: input.email } });
    if (existing && !attachExisting) return null;
    // An attached account keeps its own password and name.
    const user = existing ?? (await tx.user.create({ data: { email: input.email, name: input.name ?? null, passwordHash } }));
    const already = await tx.membership.findUnique({ where: { tenantId_userId: { tenantId, userId: user.id } } });
    if (already) throw Conflict(`${input.email} is already a member of this tenant`);
    await createMembershipsIn(tx, actorOf(actor.principal, actor.request), tenantId, [
      { user, role: input.role, details: { new_user: !existing } },
    ]);
    return findMember(tx, tenantId, user.id);
  });
}

export async function updateMember({ db, actor, tenantId }: TenantServiceContext, input: UpdateMemberInput) {
  return db.prisma.$transaction(async (tx) => {
    const admins = await TenantAdmins.lock(tx, tenantId);
    const member = await findMember(tx, tenantId, input.user_id);
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    if (input.role && input.role !== member.role) {
      admins.assert(member.userId, input.role, "demote");
      changes.role = { from: member.role, to: input.role };
    }
    if (input.name !== undefined && input.name !== nameOf(member)) changes.name = { from: nameOf(member), to: input.name };
    if (input.reviewed && member.reviewReason) changes.review_reason = { from: member.reviewReason, to: null };
    if (Object.keys(changes).length === 0) return member;

    // The name goes on the membership, never on the user: the account's name is the person's own,
    // and other tenants they belong to show it (and would not hear of a change made here).
    await tx.membership.update({
      where: { tenantId_userId: { tenantId, userId: member.userId } },
      data: {
        role: changes.role ? input.role : undefined,
        displayName: changes.name ? input.name : undefined,
        reviewReason: changes.review_reason ? null : undefined,
      },
    });
    await emitEvent(sqlIn(tx), actorOf(actor.principal, actor.request), {
      type: "user.updated",
      tenantId,
      target: { type: "user", id: member.userId, name: member.user.email },
      details: { email: member.user.email, changes },
    });
    return findMember(tx, tenantId, member.userId);
  });
}

export async function removeMember({ db, actor, tenantId }: TenantServiceContext, userId: string) {
  await db.prisma.$transaction(async (tx) => {
    const admins = await TenantAdmins.lock(tx, tenantId);
    const member = await findMember(tx, tenantId, userId);
    admins.assert(member.userId, null, "remove");
    await removeMembershipsIn(tx, actorOf(actor.principal, actor.request), tenantId, [{ member }]);
  });
}

/**
 * Sets the first password of a member who has none (console only). Platform operators only:
 * tenant admins invite people by email instead, and a tenant admin choosing the password of a
 * user who may belong to other tenants would hold a key to them.
 */
export async function setFirstPassword(
  { db, actor, tenantId }: TenantServiceContext,
  { user_id: userId, password }: { user_id: string; password: string },
) {
  if (!isOperator(actor.principal)) throw Forbidden("Only platform operators set first passwords; invite people by email instead");
  const passwordHash = await hashPassword(password);
  return db.prisma.$transaction(async (tx) => {
    const member = await findMember(tx, tenantId, userId);
    if (member.user.passwordHash) throw Conflict("This user already has a password; only they can change it");
    await tx.user.update({ where: { id: userId }, data: { passwordHash } });
    await emitEvent(sqlIn(tx), actorOf(actor.principal, actor.request), {
      type: "user.updated",
      tenantId,
      target: { type: "user", id: userId, name: member.user.email },
      details: { email: member.user.email, changes: { password: { from: "unset", to: "set" } } },
    });
    return findMember(tx, tenantId, userId);
  });
}
