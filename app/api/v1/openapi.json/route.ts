import { openApiDocument } from "@/server/http/openapi";
import { publicUrl, requestIdOf } from "@/server/http/request";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return Response.json(openApiDocument(publicUrl(req).origin), {
    headers: { "X-Request-Id": requestIdOf(req), "Cache-Control": "no-cache" },
  });
}
