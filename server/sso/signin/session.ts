/**
 * Cookies of an SSO sign-in: the browser binding of a pending request, and the console session
 * itself (next-auth's JWT, encoded here with next-auth's own encoder and secret, so next-auth and
 * createConsoleContext read it like any other session, with its `sso_tenant_id` restriction).
 */
import { randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import { clock } from "../../clock.ts";
import { appUrl } from "../../env.ts";
import { secrets } from "../../secrets/store.ts";
import { cookiesOf } from "../../auth/credentials.ts";

export const SESSION_MAX_AGE_S = 12 * 60 * 60;
const BINDING_COOKIE = "cp_sso_binding";

const secure = () => appUrl().startsWith("https://");

/** next-auth's cookie name: `__Secure-` prefixed when the app is served over https. */
export const sessionCookieName = () => `${secure() ? "__Secure-" : ""}next-auth.session-token`;

export async function sessionCookie(session: {
  userId: string;
  email: string;
  ssoTenantId: string;
  providerId: string;
  subject?: string;
}): Promise<string> {
  const value = await encode({
    // signed_in_at as next-auth's sign-in sets it (server/account/nextauth.ts): a later password reset voids the session.
    token: {
      sub: session.userId,
      email: session.email,
      sid: randomUUID(),
      sso_tenant_id: session.ssoTenantId,
      sso_provider_id: session.providerId,
      // Who the IdP vouched for: an SSO step-up must come back with the same subject.
      ...(session.subject ? { sso_subject: session.subject } : {}),
      signed_in_at: clock.now().getTime(),
    },
    secret: secrets().nextauthSecret,
    maxAge: SESSION_MAX_AGE_S,
  });
  return `${sessionCookieName()}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_MAX_AGE_S}${secure() ? "; Secure" : ""}`;
}

/**
 * The binding cookie: sent back on the IdP's redirect (OIDC, a top-level GET) and on a SAML POST
 * from the IdP's site, which needs SameSite=None (so Secure: https deployments only; over plain
 * http, as in local tests, IdP and app share a site and Lax suffices).
 */
export function bindingCookie(value: string): string {
  const attrs = secure() ? "SameSite=None; Secure" : "SameSite=Lax";
  return `${BINDING_COOKIE}=${value}; Path=/api/sso; HttpOnly; ${attrs}; Max-Age=600`;
}

export function bindingOf(req: Request): string | null {
  return cookiesOf(req)[BINDING_COOKIE] ?? null;
}

/** The binding of a Test sign-in: the admin's own user, whose console session opens the result. */
export const userBinding = (userId: string) => `user:${userId}`;

/** The binding of an SSO step-up: the one console session (its `sid`) that asked for it. */
export const sessionBinding = (sessionId: string) => `session:${sessionId}`;
