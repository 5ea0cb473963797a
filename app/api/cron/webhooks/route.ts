/**
 * Cron entry point (Vercel cron, a Kubernetes CronJob, curl): delivers due webhooks and purges
 * expired idempotency keys. `Authorization: Bearer $CRON_SECRET`, else 401 problem+json.
 */
import { database } from "@/server/db/client";
import { problemResponse } from "@/server/contract/problem";
import { publicUrl, requestIdOf } from "@/server/contract/request";
import { cronAuthorized, runWebhookCron } from "@/server/webhooks/cron";
import { drainSignal } from "@/server/ops/draining";

export const dynamic = "force-dynamic";
export const maxDuration = 60;

async function handle(req: Request): Promise<Response> {
  const requestId = requestIdOf(req);
  if (!cronAuthorized(req.headers.get("authorization"))) {
    return problemResponse(
      { code: "unauthenticated", detail: "This route needs Authorization: Bearer $CRON_SECRET", headers: { "WWW-Authenticate": "Bearer" } },
      requestId,
      publicUrl(req).origin,
    );
  }
  const summary = await runWebhookCron(await database(), { signal: drainSignal });
  return Response.json(summary, { headers: { "X-Request-Id": requestId, "Cache-Control": "no-store" } });
}

export { handle as GET, handle as POST };
