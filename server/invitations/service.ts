/**
 * Invitations, the inviting side: an admin invites an email to the tenant with a role; the emailed
 * single-use link (7 days) lets a new person set a password and join. An account that exists is
 * only ever joined by its owner, signed in as it (accept.ts). Resending replaces the token (the
 * old link dies); revoking kills it.
 */
import type { Invitation as InvitationRow } from "../db/generated/client.ts";
import { type Tx, sqlIn } from "../db/client.ts";
import { keysetPage, keysetWhere, type PageRequest } from "../db/keyset.ts";
import { Conflict, NotFound } from "../errors.ts";
import { isUuid } from "../db/ids.ts";
import { clock } from "../clock.ts";
import { log } from "../log.ts";
import { actorOf, emitEvent } from "../events/emit.ts";
import type { TenantRole } from "../auth/principal.ts";
import type { TenantServiceContext } from "../service-context.ts";
import { newLinkToken } from "../auth/link-tokens.ts";
import { routesInAnotherTenant } from "../domains/index.ts";
import { consoleLink, sendMail } from "../mail/mailer.ts";
import {
  INVITATION_TTL_DAYS,
  type AcceptBy,
  type CreateInvitationInput,
  type Invitation,
  type InvitationStatus,
  type SentInvitation,
} from "./schemas.ts";

const TTL_MS = INVITATION_TTL_DAYS * 24 * 60 * 60_000;

export function statusOf(row: InvitationRow, now = clock.now()): InvitationStatus {
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

export function statusWhere(status: InvitationStatus | undefined, now: Date) {
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
 * Whether an email belongs to a domain another tenant holds for its people: verified there (or,
 * from before domains were verified, still routing its sign-ins while pending). That tenant's SSO
 * or directory will take such a person's account as theirs.
 */
export async function claimedByAnotherTenant(db: Tx, tenantId: string, email: string): Promise<boolean> {
  return routesInAnotherTenant(sqlIn(db), tenantId, email.slice(email.lastIndexOf("@") + 1));
}

/**
 * With no mail server, whether the inviter may be handed the link. A link sets the password of a
 * new account, so only for an email with no account, outside other tenants' domains: else the
 * inviter would set the credentials of someone's existing account, or of one another tenant's SSO
 * or directory later takes as its person's (pre-hijacking). Those accept by signing in.
 */
async function acceptBy(db: Tx, tenantId: string, email: string): Promise<AcceptBy> {
  if (await db.user.findUnique({ where: { email }, select: { id: true } })) return "sign_in";
  return (await claimedByAnotherTenant(db, tenantId, email)) ? "sign_in" : "link";
}

/**
 * Mails the link. A failure is logged and reported as `email_sent: false` (the admin can resend);
 * with no mail server configured, the mail goes to a file and the link comes back to the inviter
 * where acceptBy allows it.
 */
async function mailInvitation(
  db: Tx,
  row: InvitationRow,
  token: string,
  inviter: string | null,
): Promise<Pick<SentInvitation, "email_sent" | "link" | "accept_by">> {
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
    if (delivery.via === "smtp") return { email_sent: true, link: null, accept_by: "link" };
    const by = await acceptBy(db, row.tenantId, row.email);
    return { email_sent: false, link: by === "link" ? link : null, accept_by: by };
  } catch (error) {
    log.error("invitation mail not sent", { invitation_id: row.id, error: error instanceof Error ? error.message : String(error) });
    return { email_sent: false, link: null, accept_by: "link" };
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
