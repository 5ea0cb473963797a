/** Builds the tRPC context for the REST API (bearer token) and the console (session cookie). */
import { getToken } from "next-auth/jwt";
import { database } from "../db/client.ts";
import { resolveBearer } from "../auth/tokens.ts";
import { sessionPrincipal } from "../auth/users.ts";
import { secrets } from "../secrets.ts";
import { publicUrl, requestInfo } from "../http/request.ts";
import type { Context } from "./context.ts";

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

export async function createRestContext(req: Request, requestId: string): Promise<Context> {
  const db = await database();
  const bearer = bearerOf(req);
  const base = { db, request: requestInfo(req, requestId), url: publicUrl(req), response: { headers: {} } };
  if (bearer === null) return { ...base, principal: null, authError: "missing" };
  const result = bearer ? await resolveBearer(db.sql, bearer) : ({ error: "invalid_token" } as const);
  return "principal" in result
    ? { ...base, principal: result.principal, authError: null }
    : { ...base, principal: null, authError: result.error };
}

export async function createConsoleContext(req: Request, requestId: string): Promise<Context> {
  const db = await database();
  const jwt = await getToken({ req: { headers: Object.fromEntries(req.headers), cookies: cookiesOf(req) } as never, secret: secrets().nextauthSecret });
  const sessionId = typeof jwt?.sid === "string" ? jwt.sid : null;
  const principal = jwt?.sub ? await sessionPrincipal(db.prisma, jwt.sub, sessionId) : null;
  return {
    db,
    principal,
    authError: principal ? null : "missing",
    request: requestInfo(req, requestId),
    url: publicUrl(req),
    response: { headers: {} },
  };
}
