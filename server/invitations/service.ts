/**
 * Invitations: an admin invites an email to the tenant with a role; the emailed single-use link
 * (7 days) lets the person set a password and join. An account that already has a password joins
 * by accepting while signed in as that account: a link alone never signs anyone in to an existing
 * account. Resending replaces the token (the old link dies); revoking kills it.
 */
import type { Invitation as InvitationRow } from "../db/generated/client.ts";
import { type Tx, sqlIn } from "../db/client.ts";
import { keysetPage, keysetWhere, type PageRequest } from "../db/keyset.ts";
import { AppError, Conflict, Forbidden, InvalidField, NotFound, Unauthenticated } from "../errors.ts";
import { isUuid } from "../db/ids.ts";
import { clock } from "../clock.ts";
import { log } from "../log.ts";
import { actorOf, emitEvent } from "../events/emit.ts";
import type { Principal, RequestInfo, TenantRole } from "../auth/principal.ts";
import type { Database } from "../db/client.ts";
import type { TenantServiceContext } from "../service-context.ts";
import { hashPassword } from "../auth/password.ts";
import { hashLinkToken, newLinkToken } from "../account/link-tokens.ts";
import { consoleLink, sendMail } from "../mail/mailer.ts";
import {
  INVITATION_TTL_DAYS,
  type AcceptInvitationInput,
  type AcceptedInvitation,
  type CreateInvitationInput,
  type Invitation,
  type InvitationPreview,
  type InvitationStatus,
  type SentInvitation,
} from "./schemas.ts";

const TTL_MS = INVITATION_TTL_DAYS * 24 * 60 * 60_000;

function statusOf(row: InvitationRow, now = clock.now()): InvitationStatus {
  if (row.acceptedAt) return "accepted";
  if (row.revokedAt) return "revoked";
  return row.expiresAt <= now ? "expired" : "pending";
}

export function presentInvitation(row: InvitationRow): Invitation {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    email: row.email,
    role: row.role as TenantRole,
    status: statusOf(row),
    invited_by: row.invitedBy,
    expires_at: row.expiresAt.toISOString(),
    accepted_at: row.acceptedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

function statusWhere(status: InvitationStatus | undefined, now: Date) {
  switch (status) {
    case "pending":
      return { acceptedAt: null, revokedAt: null, expiresAt: { gt: now } };
    case "expired":
      return { acceptedAt: null, revokedAt: null, expiresAt: { lte: now } };
    case "accepted":
      return { acceptedAt: { not: null } };
    case "revoked":
      return { acceptedAt: null, revokedAt: { not: null } };
    default:
      return {};
  }
}

export async function listInvitations(
  { db: { prisma: db }, tenantId }: TenantServiceContext,
  page: PageRequest,
  status?: InvitationStatus,
) {
  const where = { tenantId, ...statusWhere(status, clock.now()) };
  return keysetPage<InvitationRow>(page, {
    key: (row) => ({ at: row.createdAt, id: row.id }),
    count: () => db.invitation.count({ where }),
    find: ({ after, order, skip, take }) =>
      db.invitation.findMany({
        where: { ...where, ...keysetWhere("createdAt", after, order) },
        orderBy: [{ createdAt: order }, { id: order }],
        skip,
        take,
      }),
  });
}

async function findInvitation(db: Tx, tenantId: string, id: string): Promise<InvitationRow> {
  const row = isUuid(id) ? await db.invitation.findFirst({ where: { id, tenantId } }) : null;
  if (!row) throw NotFound("Invitation");
  return row;
}

/**
 * Mails the link. A failure is logged and reported as `email_sent: false` (the admin can resend);
 * with no mail server configured, the mail goes to a file and the link comes back to the inviter.
 */
async function mailInvitation(
  db: Tx,
  row: InvitationRow,
  token: string,
  inviter: string | null,
): Promise<Pick<SentInvitation, "email_sent" | "link">> {
  const tenant = await db.tenant.findUniqueOrThrow({ where: { id: row.tenantId }, select: { name: true } });
  const link = consoleLink("/invite", token);
  try {
    const delivery = await sendMail({
      to: row.email,
      subject: `You are invited to ${tenant.name} on Control Plane`,
      text:
        `${inviter ?? "An administrator"} invited you to join ${tenant.name} as ${row.role === "admin" ? "an admin" : "a viewer"}.\n\n` +
        `Accept the invitation:\n${link}\n\n` +
        `The link works once and expires on ${row.expiresAt.toUTCString()}. If you did not expect it, ignore this message.\n`,
    });
    return delivery.via === "smtp" ? { email_sent: true, link: null } : { email_sent: false, link };
  } catch (error) {
    log.error("invitation mail not sent", { invitation_id: row.id, error: error instanceof Error ? error.message : String(error) });
    return { email_sent: false, link: null };
  }
}

export async function createInvitation(
  { db, actor, tenantId }: TenantServiceContext,
  input: CreateInvitationInput,
): Promise<SentInvitation> {
  const { token, hash } = newLinkToken();
  const now = clock.now();
  const row = await db.prisma.$transaction(async (tx) => {
    // One writer per tenant at a time, so two admins cannot send two live invitations to one email.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`invitations:${tenantId}`}))`;
    const member = await tx.membership.findFirst({ where: { tenantId, user: { email: input.email } } });
    if (member) throw Conflict(`${input.email} is already a member of this tenant`);
    const live = await tx.invitation.findFirst({ where: { tenantId, email: input.email, ...statusWhere("pending", now) } });
    if (live) throw Conflict(`${input.email} already has a pending invitation: resend it instead`);
    const created = await tx.invitation.create({
      data: {
        tenantId,
        email: input.email,
        role: input.role,
        tokenHash: hash,
        invitedBy: actor.principal.userId,
        expiresAt: new Date(now.getTime() + TTL_MS),
      },
    });
    await emitEvent(sqlIn(tx), actorOf(actor.principal, actor.request), {
      type: "invitation.created",
      tenantId,
      target: { type: "invitation", id: created.id, name: created.email },
      details: { email: input.email, role: input.role, expires_at: created.expiresAt.toISOString() },
    });
    return created;
  });
  return { ...presentInvitation(row), ...(await mailInvitation(db.prisma, row, token, actor.principal.email)) };
}

export async function resendInvitation({ db, actor, tenantId }: TenantServiceContext, id: string): Promise<SentInvitation> {
  const { token, hash } = newLinkToken();
  const now = clock.now();
  const row = await db.prisma.$transaction(async (tx) => {
    const current = await findInvitation(tx, tenantId, id);
    const status = statusOf(current, now);
    if (status === "accepted" || status === "revoked") throw Conflict(`This invitation is ${status}; send a new one instead`);
    // The guard on updated_at makes a concurrent resend or accept lose instead of both winning.
    const { count } = await tx.invitation.updateMany({
      where: { id: current.id, updatedAt: current.updatedAt, acceptedAt: null, revokedAt: null },
      data: { tokenHash: hash, expiresAt: new Date(now.getTime() + TTL_MS), invitedBy: actor.principal.userId },
    });
    if (count === 0) throw Conflict("The invitation changed meanwhile; reload and try again");
    await emitEvent(sqlIn(tx), actorOf(actor.principal, actor.request), {
      type: "invitation.resent",
      tenantId,
      target: { type: "invitation", id: current.id, name: current.email },
      details: { email: current.email, role: current.role },
    });
    return tx.invitation.findUniqueOrThrow({ where: { id: current.id } });
  });
  return { ...presentInvitation(row), ...(await mailInvitation(db.prisma, row, token, actor.principal.email)) };
}

/** Revokes a pending or expired invitation (its link dies); revoking one already revoked is a no-op. */
export async function revokeInvitation({ db, actor, tenantId }: TenantServiceContext, id: string): Promise<void> {
  await db.prisma.$transaction(async (tx) => {
    const current = await findInvitation(tx, tenantId, id);
    if (current.revokedAt) return;
    const { count } = await tx.invitation.updateMany({
      where: { id: current.id, acceptedAt: null, revokedAt: null },
      data: { revokedAt: clock.now() },
    });
    if (count === 0) throw Conflict("This invitation has been accepted; remove the member instead");
    await emitEvent(sqlIn(tx), actorOf(actor.principal, actor.request), {
      type: "invitation.revoked",
      tenantId,
      target: { type: "invitation", id: current.id, name: current.email },
      details: { email: current.email, role: current.role },
    });
  });
}

/** The invitation behind a link token, if it can still be accepted; otherwise a 404 that says why. */
async function usableInvitation(db: Tx, token: string): Promise<InvitationRow> {
  const row = await db.invitation.findUnique({ where: { tokenHash: hashLinkToken(token) } });
  const status = row ? statusOf(row) : null;
  if (!row || status === "revoked") throw NotFound("Invitation");
  if (status === "accepted") throw new AppError("not_found", "This invitation has already been used");
  if (status === "expired") throw new AppError("not_found", "This invitation has expired: ask an admin of the tenant to resend it");
  return row;
}

export async function previewInvitation(db: Database, token: string): Promise<InvitationPreview> {
  const row = await usableInvitation(db.prisma, token);
  const tenant = await db.prisma.tenant.findUniqueOrThrow({ where: { id: row.tenantId }, select: { name: true } });
  const user = await db.prisma.user.findUnique({ where: { email: row.email }, select: { passwordHash: true } });
  return {
    tenant_id: row.tenantId,
    tenant_name: tenant.name,
    email: row.email,
    role: row.role as TenantRole,
    expires_at: row.expiresAt.toISOString(),
    needs_password: !user?.passwordHash,
  };
}

/**
 * Accepts an invitation (public: the link is the credential). A new person, or an account without
 * a password, sets one here; an account with a password must be signed in as itself.
 */
export async function acceptInvitation(
  db: Database,
  caller: { principal: Principal | null; request: RequestInfo },
  input: AcceptInvitationInput,
): Promise<AcceptedInvitation> {
  // The link is looked up before the password is hashed: scrypt costs ~50 ms of CPU, and an
  // anonymous caller with bogus links must not be able to spend it at will.
  await usableInvitation(db.prisma, input.token);
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return db.prisma.$transaction(async (tx) => {
    const invitation = await usableInvitation(tx, input.token);
    const existing = await tx.user.findUnique({ where: { email: invitation.email } });
    if (existing?.passwordHash) {
      if (!caller.principal) throw Unauthenticated(`Sign in as ${invitation.email} to accept this invitation`);
      if (caller.principal.userId !== existing.id)
        throw Forbidden(`This invitation is for ${invitation.email}: sign in as that account to accept it`);
    } else if (!passwordHash) {
      throw InvalidField("password", "is required to create your account");
    }
    // Single use: only one acceptance can flip accepted_at, whatever runs concurrently.
    const claimed = await tx.invitation.updateMany({
      where: { id: invitation.id, tokenHash: invitation.tokenHash, acceptedAt: null, revokedAt: null },
      data: { acceptedAt: clock.now() },
    });
    if (claimed.count === 0) throw new AppError("not_found", "This invitation has already been used");

    const user = existing?.passwordHash
      ? existing
      : existing
        ? await tx.user.update({ where: { id: existing.id }, data: { passwordHash, name: existing.name ?? input.name ?? null } })
        : await tx.user.create({ data: { email: invitation.email, name: input.name ?? null, passwordHash } });
    await tx.invitation.update({ where: { id: invitation.id }, data: { acceptedBy: user.id } });
    const already = await tx.membership.findUnique({ where: { tenantId_userId: { tenantId: invitation.tenantId, userId: user.id } } });
    if (already) throw Conflict(`${user.email} is already a member of this tenant`);
    await tx.membership.create({ data: { tenantId: invitation.tenantId, userId: user.id, role: invitation.role } });

    const actor = actorOf(
      { userId: user.id, email: user.email, platformRole: null, via: "session", token: null, sessionId: null },
      caller.request,
    );
    await emitEvent(sqlIn(tx), actor, {
      type: "user.created",
      tenantId: invitation.tenantId,
      target: { type: "user", id: user.id, name: user.email },
      details: { email: user.email, role: invitation.role, new_user: !existing, via: "invitation" },
    });
    await emitEvent(sqlIn(tx), actor, {
      type: "invitation.accepted",
      tenantId: invitation.tenantId,
      target: { type: "invitation", id: invitation.id, name: invitation.email },
      details: { email: user.email, role: invitation.role, user_id: user.id },
    });
    return { tenant_id: invitation.tenantId, user_id: user.id, email: user.email, role: invitation.role as TenantRole };
  });
}
