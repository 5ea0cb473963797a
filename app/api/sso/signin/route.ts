/**
 * "Continue with SSO" (the login page's form, POST): the work email picks the provider, and the
 * browser goes to its IdP (or back to /login with the reason). Not JSON: a browser form post.
 */
import { database } from "@/server/db/client";
import { appUrl } from "@/server/env";
import { requestIdOf, requestInfo } from "@/server/contract/request";
import { safeCallbackPath } from "@/server/account/session";
import { beginConsoleSignIn } from "@/server/sso/signin/begin";
import { bindingCookie } from "@/server/sso/signin/binding";

export const dynamic = "force-dynamic";

export async function POST(req: Request) {
  const form = await req.formData().catch(() => null);
  const email = String(form?.get("email") ?? "")
    .trim()
    .slice(0, 320);
  const returnTo = safeCallbackPath(String(form?.get("callbackUrl") ?? "")) ?? null;
  const started = await beginConsoleSignIn(await database(), requestInfo(req, requestIdOf(req)), email, returnTo);
  const headers = new Headers({ location: new URL(started.location, `${appUrl()}/`).toString(), "cache-control": "no-store" });
  if (started.binding) headers.append("set-cookie", bindingCookie(started.binding));
  return new Response(null, { status: 303, headers });
}
