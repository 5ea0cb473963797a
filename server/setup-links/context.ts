/**
 * The setup session's side of the web: the cookie a link's opening sets, and the tRPC context of
 * `/api/setup/trpc`, whose only credential is that cookie (never the console's session).
 */
import { database } from "../db/client.ts";
import { appUrl } from "../env.ts";
import { cookiesOf, publicUrl, requestInfo } from "../contract/request.ts";
import type { Context } from "../trpc/context.ts";
import { SETUP_COOKIE, SESSION_TTL_S } from "./schemas.ts";
import { setupPrincipal } from "./service.ts";

const secure = () => (appUrl().startsWith("https://") ? "; Secure" : "");

export function setupCookie(token: string): string {
  return `${SETUP_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_TTL_S}${secure()}`;
}

export const CLEAR_SETUP_COOKIE = `${SETUP_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;

export async function createSetupContext(req: Request, requestId: string): Promise<Context> {
  const db = await database();
  const token = cookiesOf(req)[SETUP_COOKIE];
  const principal = token ? await setupPrincipal(db, token) : null;
  return {
    db,
    principal,
    authError: principal ? null : "missing",
    request: requestInfo(req, requestId),
    url: publicUrl(req),
    response: { headers: {} },
  };
}
