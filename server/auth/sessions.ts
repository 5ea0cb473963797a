/**
 * Console sessions, kept on the server. The session cookie (server/auth/session-token.ts) names a
 * row here by its `sid`, and every request checks that row is live (one primary-key read that also
 * reads the user, in place of the user lookup a stateless cookie needed anyway), so ending a row
 * ends the session at once, wherever its cookie was copied to. What ends sessions: signing out,
 * "sign out everywhere", a password change or reset, disabling or deleting the SSO provider a
 * session came through, and removing the member from the tenant an SSO session was scoped to.
 */
import { randomUUID } from "node:crypto";
import type { SqlStatements } from "../db/sql.ts";
import { clock } from "../clock.ts";
import { env } from "../env.ts";
import { asPlatformRole, type Principal, type RequestInfo } from "./principal.ts";
import { SESSION_MAX_AGE_S } from "./session-token.ts";

/** last_seen_at (and the address it was seen from) is written at most this often per session. */
const SEEN_EVERY_MS = 5 * 60_000;

/** Ended and expired rows are kept this long (the profile lists live sessions only), then purged. */
const KEEP_ENDED_MS = 30 * 24 * 60 * 60_000;

export type EndReason =
  | "signed_out"
  | "signed_out_everywhere"
  | "ended_by_user"
  | "password_changed"
  | "password_reset"
  | "provider_disabled"
  | "provider_deleted"
  | "member_removed"
  | "deprovisioned";

export interface SessionStart {
  userId: string;
  /** An SSO sign-in's tenant and provider. */
  ssoTenantId?: string | null;
  providerId?: string | null;
  request: Pick<RequestInfo, "ip" | "userAgent">;
  /** Tests name their sessions; a sign-in gets a fresh random id. */
  id?: string;
}

/** Records a new session and answers its id, the `sid` its cookie carries. */
export async function startSession(sql: SqlStatements, start: SessionStart): Promise<string> {
  const id = start.id ?? randomUUID();
  const now = clock.now();
  await sql.query(
    `INSERT INTO console_sessions (id, user_id, sso_tenant_id, sso_provider_id, created_at, last_seen_at, expires_at, ip, user_agent)
     VALUES ($1, $2::uuid, $3::uuid, $4::uuid, $5, $5, $6, $7, $8)`,
    [
      id,
      start.userId,
      start.ssoTenantId ?? null,
      start.providerId ?? null,
      now,
      new Date(now.getTime() + SESSION_MAX_AGE_S * 1000),
      start.request.ip,
      start.request.userAgent?.slice(0, 512) ?? null,
    ],
  );
  return id;
}

/** A live session and its user, as a request's principal is built from them. */
export interface LiveSession {
  userId: string;
  email: string;
  platformRole: string | null;
  ssoTenantId: string | null;
  ssoProviderId: string | null;
  /** Whether the user has a confirmed second factor (read only when PLATFORM_REQUIRE_MFA is on; else true). */
  mfaEnrolled: boolean;
}

interface LiveRow {
  user_id: string;
  email: string;
  platform_role: string | null;
  sso_tenant_id: string | null;
  sso_provider_id: string | null;
  last_seen_at: Date;
  mfa_enrolled: boolean;
}

/**
 * The session `sid` of this user, when it is live (not ended, not expired), with its user; null
 * otherwise. Notes where it was seen from, at most every few minutes.
 */
export async function liveSession(
  sql: SqlStatements,
  sessionId: string,
  userId: string,
  seenFrom?: Pick<RequestInfo, "ip" | "userAgent">,
): Promise<LiveSession | null> {
  if (sessionId.length > 200) return null;
  const now = clock.now();
  const [row] = await sql.query<LiveRow>(
    `SELECT s.user_id::text AS user_id, u.email, u.platform_role, s.sso_tenant_id::text AS sso_tenant_id,
            s.sso_provider_id::text AS sso_provider_id, s.last_seen_at,
            ${env().PLATFORM_REQUIRE_MFA ? MFA_ENROLLED : "true"} AS mfa_enrolled
       FROM console_sessions s JOIN users u ON u.id = s.user_id
      WHERE s.id = $1 AND s.ended_at IS NULL AND s.expires_at > $2`,
    [sessionId, now],
  );
  if (!row || row.user_id !== userId) return null;
  if (seenFrom && now.getTime() - row.last_seen_at.getTime() >= SEEN_EVERY_MS) {
    await sql.query(
      `UPDATE console_sessions SET last_seen_at = $2, ip = COALESCE($3, ip), user_agent = COALESCE($4, user_agent) WHERE id = $1`,
      [sessionId, now, seenFrom.ip, seenFrom.userAgent?.slice(0, 512) ?? null],
    );
  }
  return {
    userId: row.user_id,
    email: row.email,
    platformRole: row.platform_role,
    ssoTenantId: row.sso_tenant_id,
    ssoProviderId: row.sso_provider_id,
    mfaEnrolled: row.mfa_enrolled,
  };
}

const MFA_ENROLLED = `EXISTS (SELECT 1 FROM user_mfa_factors f WHERE f.user_id = s.user_id AND f.confirmed_at IS NOT NULL)`;

/** Which live sessions to end. */
export type SessionSelector =
  | { sessionId: string; userId?: string }
  | { userId: string; exceptSessionId?: string }
  | { providerId: string; exceptSessionId?: string | null }
  | { userId: string; tenantId: string }
  | { userIds: readonly string[]; tenantId: string };

/**
 * Ends the live sessions the selector names (and drops their step-ups); answers how many ended.
 * Takes the caller's transaction, so a session ends if and only if what ended it is committed.
 */
export async function endSessions(sql: SqlStatements, selector: SessionSelector, reason: EndReason): Promise<number> {
  const [where, params] = whereOf(selector);
  const ended = await sql.query<{ id: string }>(
    `UPDATE console_sessions SET ended_at = $1, end_reason = $2
      WHERE ended_at IS NULL AND ${where}
      RETURNING id`,
    [clock.now(), reason, ...params],
  );
  if (ended.length > 0) {
    await sql.query(`DELETE FROM step_ups WHERE subject = ANY($1::text[])`, [ended.map((s) => `session:${s.id}`)]);
  }
  return ended.length;
}

function whereOf(selector: SessionSelector): [string, unknown[]] {
  if ("sessionId" in selector) {
    return selector.userId ? ["id = $3 AND user_id = $4::uuid", [selector.sessionId, selector.userId]] : ["id = $3", [selector.sessionId]];
  }
  if ("providerId" in selector) {
    return selector.exceptSessionId
      ? ["sso_provider_id = $3::uuid AND id <> $4", [selector.providerId, selector.exceptSessionId]]
      : ["sso_provider_id = $3::uuid", [selector.providerId]];
  }
  if ("userIds" in selector) return ["user_id = ANY($3::uuid[]) AND sso_tenant_id = $4::uuid", [selector.userIds, selector.tenantId]];
  if ("tenantId" in selector) return ["user_id = $3::uuid AND sso_tenant_id = $4::uuid", [selector.userId, selector.tenantId]];
  if (selector.exceptSessionId) return ["user_id = $3::uuid AND id <> $4", [selector.userId, selector.exceptSessionId]];
  return ["user_id = $3::uuid", [selector.userId]];
}

/** A live session as the profile lists it. */
export interface SessionSummary {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  ip: string | null;
  userAgent: string | null;
  ssoProviderId: string | null;
  ssoProviderName: string | null;
}

/** The user's live sessions, the most recently seen first. */
export async function liveSessionsOf(sql: SqlStatements, userId: string): Promise<SessionSummary[]> {
  const rows = await sql.query<{
    id: string;
    created_at: Date;
    last_seen_at: Date;
    expires_at: Date;
    ip: string | null;
    user_agent: string | null;
    sso_provider_id: string | null;
    provider_name: string | null;
  }>(
    `SELECT s.id, s.created_at, s.last_seen_at, s.expires_at, s.ip, s.user_agent, s.sso_provider_id::text AS sso_provider_id,
            p.name AS provider_name
       FROM console_sessions s LEFT JOIN sso_providers p ON p.id = s.sso_provider_id
      WHERE s.user_id = $1::uuid AND s.ended_at IS NULL AND s.expires_at > $2
      ORDER BY s.last_seen_at DESC, s.id
      LIMIT 100`,
    [userId, clock.now()],
  );
  return rows.map((r) => ({
    id: r.id,
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at,
    expiresAt: r.expires_at,
    ip: r.ip,
    userAgent: r.user_agent,
    ssoProviderId: r.sso_provider_id,
    ssoProviderName: r.provider_name,
  }));
}

/** Housekeeping: drops sessions that ended or expired more than 30 days ago. */
export async function purgeOldSessions(sql: SqlStatements): Promise<number> {
  const before = new Date(clock.now().getTime() - KEEP_ENDED_MS);
  const rows = await sql.query<{ n: number }>(
    `WITH gone AS (DELETE FROM console_sessions WHERE COALESCE(ended_at, expires_at) < $1 RETURNING 1) SELECT count(*)::int AS n FROM gone`,
    [before],
  );
  return rows[0]?.n ?? 0;
}

/**
 * The principal of a console session: its cookie's claims, checked against the session's row
 * (server/auth/sessions.ts), which must be live and belong to the user the cookie names. The row
 * says whether it came through SSO (and which tenant and provider), so a cookie never decides that.
 */
export async function sessionPrincipal(
  sql: SqlStatements,
  claims: { userId: string; sessionId: string | null },
  seenFrom?: Pick<RequestInfo, "ip" | "userAgent">,
): Promise<Principal | null> {
  // Cookies issued before sessions were kept on the server name no row: they sign in again.
  if (!claims.sessionId) return null;
  const session = await liveSession(sql, claims.sessionId, claims.userId, seenFrom);
  if (!session) return null;
  const ssoTenantId = session.ssoTenantId;
  const platformRole = ssoTenantId ? null : asPlatformRole(session.platformRole);
  return {
    userId: session.userId,
    email: session.email,
    // A session from an SSO sign-in never carries the user's platform role (policy.ts).
    platformRole,
    via: "session",
    token: null,
    sessionId: claims.sessionId,
    ssoTenantId,
    ssoProviderId: ssoTenantId ? session.ssoProviderId : null,
    // PLATFORM_REQUIRE_MFA: platform staff without a second factor may only enrol (server/trpc/procedures.ts).
    mfaEnrolmentRequired: platformRole !== null && !session.mfaEnrolled,
  };
}
