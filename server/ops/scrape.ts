/**
 * `GET /api/metrics`: the registry (server/metrics.ts) in Prometheus' text format. Off (404)
 * unless METRICS_TOKEN is set; the scrape needs `Authorization: Bearer $METRICS_TOKEN`. The gauges
 * read at scrape time are registered here first: the database pool's, then each feature's
 * (server/app/features.ts), each reading its own tables.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { env } from "../env.ts";
import { exposition, registerCollectors } from "../metrics.ts";
import { poolGauge } from "../db/metrics.ts";
import { featureCollectors } from "../app/features.ts";
import { problemResponse } from "../contract/problem.ts";
import { publicUrl, requestIdOf } from "../contract/request.ts";

const digest = (value: string) => createHash("sha256").update(value).digest();

/** GET /api/metrics */
export async function metricsResponse(req: Request): Promise<Response> {
  const requestId = requestIdOf(req);
  const origin = publicUrl(req).origin;
  const token = env().METRICS_TOKEN;
  if (!token) return problemResponse({ code: "not_found", detail: `No operation ${req.method} /api/metrics` }, requestId, origin);
  // Compared as digests: constant time whatever the lengths.
  if (!timingSafeEqual(digest(req.headers.get("authorization") ?? ""), digest(`Bearer ${token}`))) {
    return problemResponse(
      { code: "unauthenticated", detail: "Send Authorization: Bearer $METRICS_TOKEN", headers: { "WWW-Authenticate": "Bearer" } },
      requestId,
      origin,
    );
  }
  registerCollectors([poolGauge, ...featureCollectors()]);
  const { contentType, text } = await exposition();
  return new Response(text, { headers: { "Content-Type": contentType, "Cache-Control": "no-store", "X-Request-Id": requestId } });
}
