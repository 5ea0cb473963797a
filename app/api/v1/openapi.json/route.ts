import { openApiDocument } from "@/server/http/openapi";
import { underRateLimit } from "@/server/http/rest";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return underRateLimit(req, async (x) =>
    Response.json(openApiDocument(x.url.origin), {
      headers: { "X-Request-Id": x.requestId, "Cache-Control": "no-cache" },
    }),
  );
}
