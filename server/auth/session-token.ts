/**
 * The console session token: next-auth's JWT cookie. Two sign-ins write it (the password sign-in
 * through next-auth's `jwt` callback, server/account/nextauth.ts; an SSO sign-in, which mints the
 * cookie itself) and every reader checks it, so its claims, their checks, the encoder and the
 * lifetime live here and nowhere else. The claim names are the cookie's wire format: sessions
 * already issued carry them, so they do not change.
 */
import { encode, getToken } from "next-auth/jwt";
import { z } from "zod";
import { clock } from "../clock.ts";
import { appUrl } from "../env.ts";
import { secrets } from "../secrets/store.ts";
import { cookiesOf } from "../contract/request.ts";

/** How long a console session lasts, however it was signed in (the JWT's `exp` and the cookie's Max-Age). */
export const SESSION_MAX_AGE_S = 12 * 60 * 60;

/** A wrong type reads as absent, as a missing claim does: one bad claim must not void the others. */
const text = z.string().nullish().catch(null);

const WireClaims = z.object({
  sub: z.string().min(1),
  email: text,
  /** The session's row (server/auth/sessions.ts): the session is live while its row is; step-up is attached to it. */
  sid: text,
  /** When the session signed in (ms). */
  signed_in_at: z.number().nullish().catch(null),
  /** Set by an SSO sign-in: the session reaches that tenant only. */
  sso_tenant_id: text,
  /** The provider of an SSO sign-in (an SSO step-up goes back there). */
  sso_provider_id: text,
  /** Who the IdP vouched for: an SSO step-up must come back with the same subject. */
  sso_subject: text,
});
type WireClaims = z.output<typeof WireClaims>;

/** What a console session token says, once checked. */
export interface SessionClaims {
  userId: string;
  email: string | null;
  sessionId: string | null;
  /** Milliseconds since the epoch; null in tokens that do not say. */
  signedInAt: number | null;
  ssoTenantId: string | null;
  ssoProviderId: string | null;
  ssoSubject: string | null;
}

/** The session a sign-in starts. */
export interface NewSession {
  userId: string;
  /** Its row, recorded first (server/auth/sessions.ts `startSession`). */
  sessionId: string;
  /** next-auth's own sign-in adds the email itself; a token minted here names it. */
  email?: string;
  /** An SSO sign-in's tenant, provider and IdP subject. */
  ssoTenantId?: string;
  providerId?: string;
  subject?: string;
}

/** The claims a new session starts with: its recorded id, and now as its sign-in time. */
export function newSessionClaims(session: NewSession): WireClaims {
  return {
    sub: session.userId,
    ...(session.email ? { email: session.email } : {}),
    sid: session.sessionId,
    ...(session.ssoTenantId ? { sso_tenant_id: session.ssoTenantId } : {}),
    ...(session.providerId ? { sso_provider_id: session.providerId } : {}),
    ...(session.subject ? { sso_subject: session.subject } : {}),
    signed_in_at: clock.now().getTime(),
  };
}

/** The checked claims of a decoded token (next-auth's, or getToken's), or null when it names no user. */
export function sessionClaimsOf(token: unknown): SessionClaims | null {
  const parsed = WireClaims.safeParse(token);
  if (!parsed.success) return null;
  const claims = parsed.data;
  return {
    userId: claims.sub,
    email: claims.email ?? null,
    sessionId: claims.sid ?? null,
    signedInAt: claims.signed_in_at ?? null,
    ssoTenantId: claims.sso_tenant_id ?? null,
    ssoProviderId: claims.sso_provider_id ?? null,
    ssoSubject: claims.sso_subject ?? null,
  };
}

/**
 * The session of a request: its session cookie (or, as next-auth's getToken allows, the token as
 * `Authorization: Bearer`), decrypted and checked; null when absent, expired or forged.
 */
export async function readSessionToken(req: Request): Promise<SessionClaims | null> {
  return readSessionCookies(cookiesOf(req), Object.fromEntries(req.headers));
}

/** The same, from a request's cookies (and headers) as plain objects: a server component has no Request. */
export async function readSessionCookies(
  cookies: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<SessionClaims | null> {
  const token = await getToken({ req: { headers, cookies } as never, secret: secrets().nextauthSecret });
  return token ? sessionClaimsOf(token) : null;
}

const secure = () => appUrl().startsWith("https://");

/** next-auth's cookie name: `__Secure-` prefixed when the app is served over https. */
export const sessionCookieName = () => `${secure() ? "__Secure-" : ""}next-auth.session-token`;

/**
 * A session minted outside next-auth (an SSO sign-in), as a Set-Cookie value: encoded with
 * next-auth's own encoder and secret, so next-auth and every reader take it like their own.
 */
export async function sessionCookie(session: NewSession): Promise<string> {
  const value = await encode({ token: newSessionClaims(session), secret: secrets().nextauthSecret, maxAge: SESSION_MAX_AGE_S });
  return `${sessionCookieName()}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_MAX_AGE_S}${secure() ? "; Secure" : ""}`;
}
