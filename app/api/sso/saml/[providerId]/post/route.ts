/**
 * For identity providers that take AuthnRequests only by HTTP-POST: a page that posts our request
 * (made by the sign-in start) to the provider's SSO URL. Public, like the IdP's own page.
 */
import { database } from "@/server/db/client";
import { errorResponse } from "@/server/contract/problem";
import { publicUrl, requestIdOf } from "@/server/contract/request";
import { authnRequestPostForm } from "@/server/sso/saml/request";

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: Promise<{ providerId: string }> }) {
  const requestId = requestIdOf(req);
  const { providerId } = await params;
  const query = publicUrl(req).searchParams;
  try {
    const form = await authnRequestPostForm((await database()).prisma, providerId, query.get("SAMLRequest"), query.get("RelayState"));
    return new Response(form.html, {
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": form.contentSecurityPolicy,
        "Cache-Control": "no-store",
        "X-Request-Id": requestId,
      },
    });
  } catch (error) {
    return errorResponse(error, { requestId, origin: publicUrl(req).origin, log: "SAML POST binding page failed" });
  }
}
