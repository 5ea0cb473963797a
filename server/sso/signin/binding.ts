/**
 * The binding cookie of an SSO sign-in: ties a pending request to the browser that started it.
 * The console session an SSO sign-in ends with is server/auth/session-token.ts's `sessionCookie`.
 */
import { appUrl } from "../../env.ts";
import { cookiesOf } from "../../contract/request.ts";

const BINDING_COOKIE = "cp_sso_binding";

const secure = () => appUrl().startsWith("https://");

/**
 * The binding cookie: sent back on the IdP's redirect (OIDC, a top-level GET) and on a SAML POST
 * from the IdP's site, which needs SameSite=None (so Secure: https deployments only; over plain
 * http, as in local tests, IdP and app share a site and Lax suffices).
 */
export function bindingCookie(value: string): string {
  const attrs = secure() ? "SameSite=None; Secure" : "SameSite=Lax";
  return `${BINDING_COOKIE}=${value}; Path=/api/sso; HttpOnly; ${attrs}; Max-Age=600`;
}

/**
 * Bindings carry the namespace of what vouches for them: a cookie, a signed-in user, a console
 * session. The cookie is the browser's to write, so without its own namespace a hand-written
 * `cp_sso_binding=user:<adminId>` would equal an admin's user binding and take their Test sign-in.
 */
export const cookieBinding = (value: string) => `cookie:${value}`;

/** The binding this browser's binding cookie stands for, if it sent one. */
export function bindingOf(req: Request): string | null {
  const value = cookiesOf(req)[BINDING_COOKIE];
  return value ? cookieBinding(value) : null;
}

/** The binding of a Test sign-in: the admin's own user, whose console session opens the result. */
export const userBinding = (userId: string) => `user:${userId}`;

/** The binding of an SSO step-up: the one console session (its `sid`) that asked for it. */
export const sessionBinding = (sessionId: string) => `session:${sessionId}`;
