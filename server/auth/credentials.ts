/**
 * Who is calling, from the request's credentials: a bearer token (the REST API) or the console's
 * session cookie. The tRPC context is built from it, and `requirePrincipal` is the one place a
 * missing or bad credential becomes its 401, for procedures and the edge's own routes alike.
 */
import type { Database } from "../db/client.ts";
import { Unauthenticated } from "../errors.ts";
import { resolveBearer } from "./tokens.ts";
import { sessionPrincipal } from "./sessions.ts";
import { readSessionToken } from "./session-token.ts";
import { requestInfo } from "../contract/request.ts";
import type { Principal } from "./principal.ts";
import type { Hit, Policy } from "./rate-limit.ts";

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

/**
 * The caller of a REST request, from `Authorization: Bearer`; `count`: also count it against the
 * token; `hash`: the bearer's hashToken, when the caller has worked it out.
 */
export async function authenticateBearer(db: Database, req: Request, count?: Policy | null, hash?: string): Promise<Authentication> {
  const bearer = bearerOf(req);
  if (bearer === null) return { principal: null, authError: "missing" };
  const result = bearer ? await resolveBearer(db.sql, bearer, count, hash) : ({ error: "invalid_token" } as const);
  return "principal" in result
    ? { principal: result.principal, authError: null, hit: result.hit }
    : { principal: null, authError: result.error };
}

/** The caller of a console request, from the next-auth session cookie. */
export async function authenticateSession(db: Database, req: Request): Promise<Authentication> {
  const session = await readSessionToken(req);
  const principal = session ? await sessionPrincipal(db.sql, session, requestInfo(req, "")) : null;
  return { principal, authError: principal ? null : "missing" };
}

/** The caller, or the 401 that says why there is none. */
export function requirePrincipal(auth: Authentication): Principal {
  if (auth.principal) return auth.principal;
  throw auth.authError === "invalid_token"
    ? Unauthenticated("The access token is invalid, expired or revoked", "invalid_token")
    : Unauthenticated();
}
