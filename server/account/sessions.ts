/**
 * The caller's console sessions (the profile's "Sessions": list, end one, sign out everywhere), and
 * the events that end other sessions at once: an SSO provider disabled or deleted ends the sessions
 * signed in through it and revokes the tokens minted in them; a member removed from a tenant loses
 * the SSO sessions scoped to that tenant. The rows live in server/auth/sessions.ts.
 */
import { sqlIn } from "../db/client.ts";
import { isUuid } from "../db/ids.ts";
import { AppError, NotFound } from "../errors.ts";
import { clock } from "../clock.ts";
import { actorOf, emitForUser, type EmittedEvent, type EventSubscriber } from "../events/emit.ts";
import { endSessions, liveSessionsOf, type EndReason, type SessionSelector } from "../auth/sessions.ts";
import type { ServiceContext } from "../service-context.ts";
import type { SessionList } from "./schemas.ts";

function sessionOf({ actor: { principal } }: ServiceContext): string {
  if (principal.via !== "session" || !principal.sessionId) throw new AppError("forbidden", "Sessions are managed from a console session");
  return principal.sessionId;
}

/** The caller's live console sessions, the current one marked. */
export async function listSessions(ctx: ServiceContext): Promise<SessionList> {
  const current = sessionOf(ctx);
  const sessions = await liveSessionsOf(ctx.db.sql, ctx.actor.principal.userId);
  return {
    results: sessions.map((s) => ({
      id: s.id,
      current: s.id === current,
      created_at: s.createdAt.toISOString(),
      last_seen_at: s.lastSeenAt.toISOString(),
      expires_at: s.expiresAt.toISOString(),
      ip_address: s.ip,
      user_agent: s.userAgent,
      method: s.ssoProviderId ? ("sso" as const) : ("password" as const),
      sso_provider_name: s.ssoProviderName,
    })),
  };
}

/** Ends one of the caller's sessions (another browser, say); another user's session is a 404. */
export async function endSession(ctx: ServiceContext, { session_id: id }: { session_id: string }): Promise<void> {
  sessionOf(ctx);
  await endAndRecord(ctx, { sessionId: id, userId: ctx.actor.principal.userId }, "ended_by_user", { session_id: id });
}

/** Ends every session of the caller, this one included: the console signs out next. */
export async function signOutEverywhere(ctx: ServiceContext): Promise<{ sessions_ended: number }> {
  sessionOf(ctx);
  return { sessions_ended: await endAndRecord(ctx, { userId: ctx.actor.principal.userId }, "signed_out_everywhere", {}) };
}

async function endAndRecord(
  { db, actor: { principal, request } }: ServiceContext,
  selector: SessionSelector,
  reason: EndReason,
  details: Record<string, unknown>,
): Promise<number> {
  return db.prisma.$transaction(async (tx) => {
    const ended = await endSessions(sqlIn(tx), selector, reason);
    if (ended === 0 && "sessionId" in selector) throw NotFound("Session");
    await emitForUser(sqlIn(tx), actorOf(principal, request), principal.userId, {
      type: "user.sessions_ended",
      target: { type: "user", id: principal.userId, name: principal.email },
      details: { reason, count: ended, ...details },
    });
    return ended;
  });
}

/**
 * Ends what an event takes away, in the event's own transaction: the sessions (and tokens) of a
 * disabled or deleted SSO provider, and a removed member's SSO sessions scoped to that tenant.
 */
export const endSessionsOnEvents: EventSubscriber = async (tx, events) => {
  // Members removed together (a directory deprovisioning many at once) end in one statement per tenant.
  const removed = new Map<string, string[]>();
  for (const { row, actor } of events) {
    const ended = endingOf(row, actor.sessionId ?? null);
    if (!ended) continue;
    if ("tenantId" in ended.selector && "userId" in ended.selector) {
      removed.set(ended.selector.tenantId, [...(removed.get(ended.selector.tenantId) ?? []), ended.selector.userId]);
      continue;
    }
    await endSessions(tx, ended.selector, ended.reason);
    if ("providerId" in ended.selector) {
      await tx.query(`UPDATE api_tokens SET revoked_at = $2 WHERE sso_provider_id = $1::uuid AND revoked_at IS NULL`, [
        ended.selector.providerId,
        clock.now(),
      ]);
    }
  }
  for (const [tenantId, userIds] of removed) await endSessions(tx, { userIds, tenantId }, "member_removed");
};

/**
 * The sessions an event ends. A provider disabled or deleted from a session signed in through it
 * leaves that one session be: the admin who chose it goes on (and would otherwise be locked out
 * mid-action when SSO is their only way in); everyone else's end.
 */
function endingOf(row: EmittedEvent["row"], actingSession: string | null): { selector: SessionSelector; reason: EndReason } | null {
  if (!isUuid(row.target_id)) return null;
  switch (`${row.target_type} ${row.event_type}`) {
    case "sso_provider sso_provider.disabled":
      return { selector: { providerId: row.target_id, exceptSessionId: actingSession }, reason: "provider_disabled" };
    case "sso_provider sso_provider.deleted":
      return { selector: { providerId: row.target_id, exceptSessionId: actingSession }, reason: "provider_deleted" };
    case "user user.removed":
      return row.tenant_id ? { selector: { userId: row.target_id, tenantId: row.tenant_id }, reason: "member_removed" } : null;
    default:
      return null;
  }
}
