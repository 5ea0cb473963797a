/**
 * Who is calling, from the request's credentials: a bearer token (the REST API) or the console's
 * session cookie. The tRPC context is built from it, and `requirePrincipal` is the one place a
 * missing or bad credential becomes its 401, for procedures and the edge's own routes alike.
 */
import { getToken } from "next-auth/jwt";
import type { Database } from "../db/client.ts";
import { Unauthenticated } from "../errors.ts";
import { resolveBearer } from "./tokens.ts";
import { sessionPrincipal } from "./principal.ts";
import type { Principal } from "./principal.ts";
import type { Hit, Policy } from "./rate-limit.ts";
import { secrets } from "../secrets/store.ts";

export interface Authentication {
  principal: Principal | null;
  /** Why there is no principal: no credentials, or credentials that did not resolve. */
  authError: "missing" | "invalid_token" | null;
  /** The token's rate-limit count, when the lookup was asked to count (server/auth/rate-limit.ts). */
  hit?: Hit;
}

export function bearerOf(req: Request): string | null {
  const header = req.headers.get("authorization");
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : "";
}

/** The request's cookies as a plain object (next-auth's getToken reads `req.cookies`, not the header). */
export function cookiesOf(req: Request): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0) cookies[part.slice(0, at).trim()] = decodeURIComponent(part.slice(at + 1).trim());
  }
  return cookies;
}

/** The caller of a REST request, from `Authorization: Bearer`; `count`: also count it against the token. */
export async function authenticateBearer(db: Database, req: Request, count?: Policy | null): Promise<Authentication> {
  const bearer = bearerOf(req);
  if (bearer === null) return { principal: null, authError: "missing" };
  const result = bearer ? await resolveBearer(db.sql, bearer, count) : ({ error: "invalid_token" } as const);
  return "principal" in result
    ? { principal: result.principal, authError: null, hit: result.hit }
    : { principal: null, authError: result.error };
}

/** The caller of a console request, from the next-auth session cookie. */
export async function authenticateSession(db: Database, req: Request): Promise<Authentication> {
  const jwt = await getToken({
    req: { headers: Object.fromEntries(req.headers), cookies: cookiesOf(req) } as never,
    secret: secrets().nextauthSecret,
  });
  const sessionId = typeof jwt?.sid === "string" ? jwt.sid : null;
  // Set by an SSO sign-in (server/sso/signin/session.ts): the session reaches that tenant only.
  const ssoTenantId = typeof jwt?.sso_tenant_id === "string" ? jwt.sso_tenant_id : null;
  const signedInAt = typeof jwt?.signed_in_at === "number" ? jwt.signed_in_at : null;
  const ssoProviderId = typeof jwt?.sso_provider_id === "string" ? jwt.sso_provider_id : null;
  const principal = jwt?.sub ? await sessionPrincipal(db.prisma, jwt.sub, sessionId, ssoTenantId, signedInAt, ssoProviderId) : null;
  return { principal, authError: principal ? null : "missing" };
}

/** The caller, or the 401 that says why there is none. */
export function requirePrincipal(auth: Authentication): Principal {
  if (auth.principal) return auth.principal;
  throw auth.authError === "invalid_token"
    ? Unauthenticated("The access token is invalid, expired or revoked", "invalid_token")
    : Unauthenticated();
}
