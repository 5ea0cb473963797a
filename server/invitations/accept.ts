/**
 * Invitations, the invitee's side. An account that exists is only ever joined by its owner: a link
 * creates an account only for an email that has none (with the new person's password), and never
 * sets or changes a credential of one that exists. That account accepts signed in as itself, by
 * the link or from its own pending invitations (/me/invitations); both end in `join`.
 */
import type { Invitation as InvitationRow, User } from "../db/generated/client.ts";
import { type Database, type Tx, sqlIn } from "../db/client.ts";
import { keysetPage, keysetWhere, type PageRequest } from "../db/keyset.ts";
import { AppError, Conflict, Forbidden, InvalidField, NotFound, Unauthenticated } from "../errors.ts";
import { isUuid } from "../db/ids.ts";
import { clock } from "../clock.ts";
import { actorOf, emitEvent, type EventActor } from "../events/emit.ts";
import type { Principal, RequestInfo, TenantRole } from "../auth/principal.ts";
import type { ServiceContext } from "../service-context.ts";
import { hashPassword } from "../auth/password.ts";
import { hashLinkToken } from "../auth/link-tokens.ts";
import { mailServerConfigured } from "../mail/mailer.ts";
import type { AcceptInvitationInput, AcceptedInvitation, InvitationPreview, MyInvitation } from "./schemas.ts";
import { claimedByAnotherTenant, statusOf, statusWhere } from "./service.ts";

/** A 404 that says why, unless the invitation can still be accepted. */
function assertUsable(row: InvitationRow | null): asserts row is InvitationRow {
  const status = row ? statusOf(row) : null;
  if (!row || status === "revoked") throw NotFound("Invitation");
  if (status === "accepted") throw new AppError("not_found", "This invitation has already been used");
  if (status === "expired") throw new AppError("not_found", "This invitation has expired: ask an admin of the tenant to resend it");
}

/** The invitation behind a link token, if it can still be accepted. */
async function usableInvitation(db: Tx, token: string): Promise<InvitationRow> {
  const row = await db.invitation.findUnique({ where: { tokenHash: hashLinkToken(token) } });
  assertUsable(row);
  return row;
}

/**
 * Accepting is the account owner's act: a console session (an SSO session too, whatever tenant it
 * reaches), or a token that may act for the whole account. A token scoped to one tenant, or
 * read-only, was made for less, and a setup link is no account.
 */
function assertAccountOwner(principal: Principal): void {
  if (principal.setupLink) throw Forbidden("A setup link opens its guided setup only");
  if (principal.token?.tenantId)
    throw Forbidden("A token scoped to one tenant cannot accept invitations: accept in the console, or with an unscoped token");
  if (principal.token?.readOnly) throw Forbidden("This token is read-only");
}

export async function previewInvitation(db: Database, token: string): Promise<InvitationPreview> {
  const row = await usableInvitation(db.prisma, token);
  const tenant = await db.prisma.tenant.findUniqueOrThrow({ where: { id: row.tenantId }, select: { name: true } });
  return {
    tenant_id: row.tenantId,
    tenant_name: tenant.name,
    email: row.email,
    role: row.role as TenantRole,
    expires_at: row.expiresAt.toISOString(),
  };
}

/**
 * Accepts by link (public: the link is the credential, for a new account only). An email with no
 * account gets one with `password`; an account that exists must be the signed-in caller (401
 * anonymous, 403 as anyone else), and `password` and `name` change nothing of it.
 */
export async function acceptInvitation(
  db: Database,
  caller: { principal: Principal | null; request: RequestInfo },
  input: AcceptInvitationInput,
): Promise<AcceptedInvitation> {
  // The link is looked up before the password is hashed: scrypt costs ~50 ms of CPU, and an
  // anonymous caller with bogus links must not be able to spend it at will; nor is it spent for
  // an account that exists, whose password no link sets.
  const found = await usableInvitation(db.prisma, input.token);
  const exists = (await db.prisma.user.count({ where: { email: found.email } })) > 0;
  const passwordHash = input.password && !exists ? await hashPassword(input.password) : null;
  return db.prisma.$transaction(async (tx) => {
    const invitation = await usableInvitation(tx, input.token);
    const existing = await tx.user.findUnique({ where: { email: invitation.email } });
    if (existing) {
      const { principal } = caller;
      if (!principal) throw Unauthenticated(`Sign in as ${invitation.email} to accept this invitation`);
      assertAccountOwner(principal);
      if (principal.userId !== existing.id)
        throw Forbidden(`This invitation is for ${invitation.email}: sign in as that account to accept it`);
      return join(tx, invitation, existing, false, actorOf(principal, caller.request));
    }
    if (!passwordHash) throw InvalidField("password", "is required to create your account");
    // With no mail server the link was never mailed: whoever holds it had it from the server, and
    // another tenant's person is that tenant's to create (its SSO or directory), not the holder's.
    if (!mailServerConfigured() && (await claimedByAnotherTenant(tx, invitation.tenantId, invitation.email)))
      throw Forbidden(
        `${invitation.email} belongs to another organisation's domain: sign in through its SSO, then accept the invitation in the console`,
      );
    const user = await tx.user.create({ data: { email: invitation.email, name: input.name ?? null, passwordHash } });
    const actor = actorOf(
      { userId: user.id, email: user.email, platformRole: null, via: "session", token: null, sessionId: null },
      caller.request,
    );
    return join(tx, invitation, user, true, actor);
  });
}

/** Accepts an invitation addressed to the caller's own account, signed in (no link needed). */
export async function acceptMyInvitation({ db, actor }: ServiceContext, invitationId: string): Promise<AcceptedInvitation> {
  assertAccountOwner(actor.principal);
  return db.prisma.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: actor.principal.userId } });
    if (!user || !isUuid(invitationId)) throw NotFound("Invitation");
    // Addressed to this account's email, or it is another's: 404 either way.
    const row = await tx.invitation.findFirst({ where: { id: invitationId, email: user.email } });
    assertUsable(row);
    return join(tx, row, user, false, actorOf(actor.principal, actor.request));
  });
}

/**
 * The invitation accepted by `user`, once: it becomes a member with the invitation's role, and
 * `user.created` (the tenant's new member) and `invitation.accepted` are recorded.
 */
async function join(tx: Tx, invitation: InvitationRow, user: User, newUser: boolean, actor: EventActor): Promise<AcceptedInvitation> {
  // Single use: only one acceptance can flip accepted_at, whatever runs concurrently.
  const claimed = await tx.invitation.updateMany({
    where: { id: invitation.id, tokenHash: invitation.tokenHash, acceptedAt: null, revokedAt: null },
    data: { acceptedAt: clock.now(), acceptedBy: user.id },
  });
  if (claimed.count === 0) throw new AppError("not_found", "This invitation has already been used");
  const already = await tx.membership.findUnique({ where: { tenantId_userId: { tenantId: invitation.tenantId, userId: user.id } } });
  if (already) throw Conflict(`${user.email} is already a member of this tenant`);
  await tx.membership.create({ data: { tenantId: invitation.tenantId, userId: user.id, role: invitation.role } });

  await emitEvent(sqlIn(tx), actor, {
    type: "user.created",
    tenantId: invitation.tenantId,
    target: { type: "user", id: user.id, name: user.email },
    details: { email: user.email, role: invitation.role, new_user: newUser, via: "invitation" },
  });
  await emitEvent(sqlIn(tx), actor, {
    type: "invitation.accepted",
    tenantId: invitation.tenantId,
    target: { type: "invitation", id: invitation.id, name: invitation.email },
    details: { email: user.email, role: invitation.role, user_id: user.id },
  });
  return { tenant_id: invitation.tenantId, user_id: user.id, email: user.email, role: invitation.role as TenantRole };
}

type MyInvitationRow = InvitationRow & { tenant: { name: string } };

/**
 * The caller's pending invitations: those addressed to its account's email, in any tenant, newest
 * first. A token scoped to one tenant sees nothing beyond it, so it is refused here.
 */
export async function listMyInvitations({ db: { prisma: db }, actor: { principal } }: ServiceContext, page: PageRequest) {
  if (principal.token?.tenantId) throw Forbidden("A token scoped to one tenant cannot list your invitations: use an unscoped token");
  const user = await db.user.findUnique({ where: { id: principal.userId }, select: { email: true } });
  const where = { email: user?.email ?? "", ...statusWhere("pending", clock.now()) };
  const result = await keysetPage<MyInvitationRow>(page, {
    key: (row) => ({ at: row.createdAt, id: row.id }),
    count: () => db.invitation.count({ where }),
    find: ({ after, order, skip, take }) =>
      db.invitation.findMany({
        where: { ...where, ...keysetWhere("createdAt", after, order) },
        include: { tenant: { select: { name: true } } },
        orderBy: [{ createdAt: order }, { id: order }],
        skip,
        take,
      }),
  });
  const inviterIds = [...new Set(result.items.map((row) => row.invitedBy).filter((id): id is string => id !== null))];
  const inviters = new Map(
    (await db.user.findMany({ where: { id: { in: inviterIds } }, select: { id: true, email: true } })).map((u) => [u.id, u.email]),
  );
  return { ...result, items: result.items.map((row) => presentMine(row, inviters)) };
}

function presentMine(row: MyInvitationRow, inviters: Map<string, string>): MyInvitation {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    tenant_name: row.tenant.name,
    role: row.role as TenantRole,
    invited_by_email: (row.invitedBy && inviters.get(row.invitedBy)) ?? null,
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}

/** Whether the account has invitations waiting for it (the console lands it where they show). */
export async function hasPendingInvitations(db: Database, userId: string): Promise<boolean> {
  const user = await db.prisma.user.findUnique({ where: { id: userId }, select: { email: true } });
  if (!user) return false;
  return (await db.prisma.invitation.count({ where: { email: user.email, ...statusWhere("pending", clock.now()) } })) > 0;
}
