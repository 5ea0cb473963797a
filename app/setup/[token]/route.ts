/**
 * Opening a setup link: within its lifetime, a 4-hour setup session starts in this browser (the
 * setup cookie) and the guided page opens; otherwise the page says why (expired, revoked, unknown).
 * The token leaves the address bar at once (a redirect), so it is not left in the page's history.
 */
import { database } from "@/server/db/client";
import { appUrl } from "@/server/env";
import { requestIdOf, requestInfo } from "@/server/contract/request";
import { openSetupLink } from "@/server/setup-links/service";
import { CLEAR_SETUP_COOKIE, setupCookie } from "@/server/setup-links/context";

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const opened = token.length <= 200 ? await openSetupLink(await database(), token, requestInfo(req, requestIdOf(req))) : null;
  const location = opened?.ok ? "/setup" : `/setup?error=${opened?.reason ?? "unknown"}`;
  const headers = new Headers({
    location: new URL(location, `${appUrl()}/`).toString(),
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
  });
  headers.append("set-cookie", opened?.ok ? setupCookie(opened.sessionToken) : CLEAR_SETUP_COOKIE);
  return new Response(null, { status: 303, headers });
}
