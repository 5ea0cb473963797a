/**
 * The OAuth broker's authorization endpoint (server/sso/broker/authorize.ts): an application's
 * browser redirect arrives here and goes on to the IdP, back to the application with an error, or
 * (unknown client, unregistered redirect_uri) stops on an error page.
 */
import { database } from "@/server/db/client";
import { requestIdOf, requestInfo } from "@/server/contract/request";
import { authorize } from "@/server/sso/broker/authorize";
import { authorizeErrorPage, redirectTo } from "@/server/sso/broker/oauth";
import { bindingCookie } from "@/server/sso/signin/binding";

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  const result = await authorize(await database(), requestInfo(req, requestIdOf(req)), new URL(req.url).searchParams);
  if (result.kind === "refused") return authorizeErrorPage(req, result.error, result.description);
  return redirectTo(result.location, result.binding ? [bindingCookie(result.binding)] : []);
}
