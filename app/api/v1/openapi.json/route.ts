import { openApiDocument } from "@/server/http/openapi";
import { publicUrl, requestIdOf } from "@/server/contract/request";
import { underRateLimit } from "@/server/http/rest";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  const requestId = requestIdOf(req);
  return underRateLimit(req, requestId, async () =>
    Response.json(openApiDocument(publicUrl(req).origin), {
      headers: { "X-Request-Id": requestId, "Cache-Control": "no-cache" },
    }),
  );
}
