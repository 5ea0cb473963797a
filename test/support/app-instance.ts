/**
 * One app instance as a child process, for the scale-out and shutdown tests: the production
 * server (server/ops/http-server.ts: REST edge, probes, graceful SIGTERM) with start-up (migrations,
 * webhook dispatcher), and the route files where Next would be (test/support/api.ts; no build
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
import { servedBy } from "./api.ts";

await serveInCluster({
  workers: env().WEB_CONCURRENCY,
  prepare: prepareDatabase,
  async serve() {
    await startServer();
    const app = createAppServer(async (req, res) => {
      const request = await readWebRequest(req, `http://${req.headers.host}`);
      const served = await servedBy(request.method, new URL(request.url).pathname);
      await sendWebResponse(res, served ? await served.handler(request) : new Response("not found", { status: 404 }));
    });
    app.server.listen(0, "127.0.0.1", () => {
      console.log(JSON.stringify({ port: (app.server.address() as AddressInfo).port }));
    });
    exitGracefullyOnSignals(app);
  },
});
