/**
 * One app instance as a child process, for the scale-out and shutdown tests: the production
 * server (server/ops/http-server.ts: REST edge, probes, graceful SIGTERM) with start-up (migrations,
 * webhook dispatcher), and the app's other API route handlers where Next would be (no build
 * needed). Prints `{"port": N}` once it listens (each worker, with WEB_CONCURRENCY above 1).
 *   node --import tsx --import ./scripts/server-only.mjs test/support/app-instance.ts
 */
import type { AddressInfo } from "node:net";
import { env } from "../../server/env.ts";
import { prepareDatabase, startServer } from "../../server/app/startup.ts";
import { serveInCluster } from "../../server/ops/cluster.ts";
import { createAppServer } from "../../server/ops/http-server.ts";
import { exitGracefullyOnSignals } from "../../server/ops/shutdown.ts";
import { readWebRequest, sendWebResponse } from "../../server/http/node.ts";
import * as openapi from "../../app/api/v1/openapi.json/route.ts";
import * as fallback from "../../app/api/[...path]/route.ts";
import * as cron from "../../app/api/cron/route.ts";
import * as cronAlias from "../../app/api/cron/webhooks/route.ts";

type Handler = (req: Request) => Response | Promise<Response>;

function route(method: string, pathname: string): Handler | undefined {
  const pick = (mod: Record<string, unknown>) => mod[method] as Handler | undefined;
  if (pathname === "/api/v1/openapi.json") return pick(openapi);
  if (pathname === "/api/cron") return pick(cron);
  if (pathname === "/api/cron/webhooks") return pick(cronAlias);
  if (pathname.startsWith("/api/")) return pick(fallback);
  return undefined;
}

await serveInCluster({
  workers: env().WEB_CONCURRENCY,
  prepare: prepareDatabase,
  async serve() {
    await startServer();
    const app = createAppServer(async (req, res) => {
      const request = await readWebRequest(req, `http://${req.headers.host}`);
      const handler = route(request.method, new URL(request.url).pathname);
      await sendWebResponse(res, handler ? await handler(request) : new Response("not found", { status: 404 }));
    });
    app.server.listen(0, "127.0.0.1", () => {
      console.log(JSON.stringify({ port: (app.server.address() as AddressInfo).port }));
    });
    exitGracefullyOnSignals(app);
  },
});
