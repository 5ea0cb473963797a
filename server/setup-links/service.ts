/**
 * Setup links: a tenant admin (or an operator) makes a one-time URL for a customer's IT admin, who
 * opens it without an account and gets a guided flow for one intent in one tenant (./flow-*.ts).
 * The URL carries a random token, stored only as its hash. Opening it within its lifetime (7 days
 * by default) starts a 4-hour setup session in that browser (a cookie, its hash stored too);
 * revoking the link ends its sessions at once. Making a link hands a stranger part of an admin's
 * power, so it needs a fresh step-up, like the other changes of whom the tenant trusts.
 */
import type { SetupLink as SetupLinkRow } from "../db/generated/client.ts";
import type { Database } from "../db/client.ts";
import { sqlIn } from "../db/client.ts";
import { keysetPage, keysetWhere, type PageRequest } from "../db/keyset.ts";
import { isUuid } from "../db/ids.ts";
import { InvalidField, NotFound } from "../errors.ts";
import { clock } from "../clock.ts";
import { appUrl } from "../env.ts";
import { assertSteppedUp } from "../auth/step-up.ts";
import type { Principal, RequestInfo, SetupIntent } from "../auth/principal.ts";
import { actorOf, emitEvent, type EventActor } from "../events/emit.ts";
import { hashLinkToken, newLinkToken } from "../auth/link-tokens.ts";
import { rotateDirectoryTokenIn } from "../directories/index.ts";
import type { Directory as DirectoryRow } from "../db/generated/client.ts";
import type { TenantServiceContext } from "../service-context.ts";
import { DEFAULT_EXPIRES_IN_S, SESSION_TTL_S, type CreateSetupLinkInput, type SetupLink } from "./schemas.ts";

const target = (row: { id: string; intent: string }) => ({ type: "setup_link", id: row.id, name: row.intent });

export function presentSetupLink(row: SetupLinkRow, now = clock.now()): SetupLink {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    intent: row.intent as SetupIntent,
    state: row.revokedAt ? "revoked" : row.expiresAt <= now ? "expired" : "active",
    sso_provider_id: row.ssoProviderId,
    directory_id: row.directoryId,
    expires_at: row.expiresAt.toISOString(),
    created_by: row.createdById,
    created_by_email: row.createdByEmail,
    last_opened_at: row.lastOpenedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

export const setupUrl = (token: string) => `${appUrl()}/setup/${token}`;

export async function listSetupLinks({ db: { prisma: db }, tenantId }: TenantServiceContext, page: PageRequest) {
  return keysetPage<SetupLinkRow>(page, {
    key: (row) => ({ at: row.createdAt, id: row.id }),
    count: () => db.setupLink.count({ where: { tenantId } }),
    find: ({ after, order, skip, take }) =>
      db.setupLink.findMany({
        where: { AND: [{ tenantId }, keysetWhere("createdAt", after, order)] },
        orderBy: [{ createdAt: order }, { id: order }],
        skip,
        take,
      }),
  });
}

export async function getSetupLink({ db, tenantId }: TenantServiceContext, id: string): Promise<SetupLinkRow> {
  const row = isUuid(id) ? await db.prisma.setupLink.findFirst({ where: { id, tenantId } }) : null;
  if (!row) throw NotFound("Setup link");
  return row;
}

/** Makes the link; its token appears once, in the URL answered here. */
export async function createSetupLink(
  { db, actor, tenantId }: TenantServiceContext,
  input: CreateSetupLinkInput,
): Promise<{ row: SetupLinkRow; url: string }> {
  const now = clock.now();
  const { token, hash } = newLinkToken();
  const row = await db.prisma.$transaction(async (tx) => {
    await assertSteppedUp(tx, actor.principal);
    if (input.sso_provider_id !== undefined) {
      const provider = isUuid(input.sso_provider_id)
        ? await tx.ssoProvider.findFirst({ where: { id: input.sso_provider_id, tenantId }, select: { id: true } })
        : null;
      if (!provider) throw InvalidField("sso_provider_id", "is not an SSO provider of this tenant");
    }
    if (input.directory_id !== undefined) {
      const directory = isUuid(input.directory_id)
        ? await tx.directory.findFirst({ where: { id: input.directory_id, tenantId }, select: { id: true } })
        : null;
      if (!directory) throw InvalidField("directory_id", "is not a directory of this tenant");
    }
    const user = isUuid(actor.principal.userId) ? await tx.user.findUnique({ where: { id: actor.principal.userId } }) : null;
    const created = await tx.setupLink.create({
      data: {
        tenantId,
        intent: input.intent,
        tokenHash: hash,
        ssoProviderId: input.sso_provider_id ?? null,
        directoryId: input.directory_id ?? null,
        createdById: user?.id ?? null,
        createdByEmail: user?.email ?? actor.principal.email,
        expiresAt: new Date(now.getTime() + (input.expires_in ?? DEFAULT_EXPIRES_IN_S) * 1000),
        createdAt: now,
      },
    });
    await emitEvent(sqlIn(tx), actorOf(actor.principal, actor.request), {
      type: "setup_link.created",
      tenantId,
      target: target(created),
      details: {
        intent: created.intent,
        expires_at: created.expiresAt.toISOString(),
        sso_provider_id: created.ssoProviderId,
        directory_id: created.directoryId,
      },
    });
    return created;
  });
  return { row, url: setupUrl(token) };
}

/**
 * Revokes the link and ends every session opened from it. Revoking a revoked link changes nothing.
 * A `directory_sync` link's directory and its token live on (the IdP keeps syncing); with
 * `rotateDirectoryToken` (step-up) its token is replaced in the same transaction, since the IT
 * admin who held the link saw it. Answers the link and its directory as they are now.
 */
export async function revokeSetupLink(
  ctx: TenantServiceContext,
  id: string,
  { rotateDirectoryToken = false }: { rotateDirectoryToken?: boolean } = {},
): Promise<{ row: SetupLinkRow; directory: DirectoryRow | null; token: string | null }> {
  const { db, actor, tenantId } = ctx;
  return db.prisma.$transaction(async (tx) => {
    const row = isUuid(id) ? await tx.setupLink.findFirst({ where: { id, tenantId } }) : null;
    if (!row) throw NotFound("Setup link");
    let directory = row.directoryId ? await tx.directory.findFirst({ where: { id: row.directoryId, tenantId } }) : null;
    if (rotateDirectoryToken && !directory) throw InvalidField("rotate_directory_token", "this link has no directory");
    let token: string | null = null;
    if (rotateDirectoryToken && directory) ({ row: directory, token } = await rotateDirectoryTokenIn(tx, ctx, directory.id));
    if (row.revokedAt) return { row, directory, token };
    const revoked = await tx.setupLink.update({ where: { id }, data: { revokedAt: clock.now() } });
    const ended = await tx.setupSession.deleteMany({ where: { linkId: id } });
    await emitEvent(sqlIn(tx), actorOf(actor.principal, actor.request), {
      type: "setup_link.revoked",
      tenantId,
      target: target(row),
      details: {
        intent: row.intent,
        sessions_ended: ended.count,
        ...(directory ? { directory_id: directory.id, directory_token_rotated: token !== null } : {}),
      },
    });
    return { row: revoked, directory, token };
  });
}

/** What becomes of a revoked link's directory, said to the admin who revoked it. */
export function directoryAfterRevoke(directory: DirectoryRow, rotated: boolean): string {
  return rotated
    ? `The directory "${directory.name}" stays, with a new SCIM token (shown once): give it to your IdP; the old token no longer works.`
    : `The directory "${directory.name}" and its SCIM token stay: your customer's IdP keeps syncing people into this tenant. The IT admin who held the link saw the token: rotate it to cut them off (the IdP then needs the new one).`;
}

export type OpenRefusal = "unknown" | "expired" | "revoked";

/**
 * The IT admin opens the link: within its lifetime, a new 4-hour session for this browser (its
 * token goes into the setup cookie); else why not. Opening again (another day, another browser)
 * starts another session. Each opening is audited, with where it came from.
 */
export async function openSetupLink(
  db: Database,
  token: string,
  request: RequestInfo,
): Promise<{ ok: true; sessionToken: string; expiresAt: Date } | { ok: false; reason: OpenRefusal; createdByEmail?: string | null }> {
  const link = await db.prisma.setupLink.findUnique({ where: { tokenHash: hashLinkToken(token) } });
  if (!link) return { ok: false, reason: "unknown" };
  if (link.revokedAt) return { ok: false, reason: "revoked", createdByEmail: link.createdByEmail };
  const now = clock.now();
  if (link.expiresAt <= now) return { ok: false, reason: "expired", createdByEmail: link.createdByEmail };
  const session = newLinkToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_S * 1000);
  await db.prisma.$transaction(async (tx) => {
    const row = await tx.setupSession.create({
      data: { linkId: link.id, tokenHash: session.hash, expiresAt, ip: request.ip, userAgent: request.userAgent, createdAt: now },
    });
    await tx.setupLink.update({ where: { id: link.id }, data: { lastOpenedAt: now } });
    const actor: EventActor = {
      id: `setup_link:${link.id}`,
      email: null,
      ip: request.ip,
      userAgent: request.userAgent,
      setupLink: { id: link.id, createdBy: { id: link.createdById, email: link.createdByEmail } },
    };
    await emitEvent(sqlIn(tx), actor, {
      type: "setup_link.opened",
      tenantId: link.tenantId,
      target: target(link),
      details: { intent: link.intent, session_id: row.id, session_expires_at: expiresAt.toISOString() },
    });
  });
  return { ok: true, sessionToken: session.token, expiresAt };
}

/** The principal of a setup session's token: null when unknown, expired, or its link revoked. */
export async function setupPrincipal(db: Database, sessionToken: string): Promise<Principal | null> {
  if (!sessionToken) return null;
  const session = await db.prisma.setupSession.findUnique({ where: { tokenHash: hashLinkToken(sessionToken) }, include: { link: true } });
  if (!session || session.expiresAt <= clock.now() || session.link.revokedAt) return null;
  const { link } = session;
  return {
    userId: link.id,
    email: "",
    platformRole: null,
    via: "session",
    token: null,
    sessionId: null,
    setupLink: {
      id: link.id,
      tenantId: link.tenantId,
      intent: link.intent as SetupIntent,
      sessionId: session.id,
      sessionExpiresAt: session.expiresAt,
      createdBy: { id: link.createdById, email: link.createdByEmail },
    },
  };
}
