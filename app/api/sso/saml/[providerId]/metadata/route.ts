/**
 * Our SAML service-provider metadata for one provider, public (IdPs fetch it without credentials).
 * Unknown or non-SAML provider: 404 problem+json.
 */
import { database } from "@/server/db/client";
import { errorResponse } from "@/server/contract/problem";
import { publicUrl, requestIdOf } from "@/server/contract/request";
import { samlSpMetadata } from "@/server/sso/saml/sp-metadata";

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: Promise<{ providerId: string }> }) {
  const requestId = requestIdOf(req);
  const { providerId } = await params;
  try {
    const xml = await samlSpMetadata((await database()).prisma, providerId);
    return new Response(xml, {
      headers: {
        "Content-Type": "application/samlmetadata+xml; charset=utf-8",
        "Cache-Control": "public, max-age=300",
        "X-Request-Id": requestId,
      },
    });
  } catch (error) {
    return errorResponse(error, { requestId, origin: publicUrl(req).origin, log: "SAML SP metadata failed" });
  }
}
