import { problemResponse } from "@/server/contract/problem";
import { publicUrl, requestIdOf } from "@/server/contract/request";

export const dynamic = "force-dynamic";

/** Any /api path no route claims: a problem+json 404, not an HTML page. */
function notFound(req: Request) {
  const url = publicUrl(req);
  return problemResponse({ code: "not_found", detail: `No operation ${req.method} ${url.pathname}` }, requestIdOf(req), url.origin);
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
