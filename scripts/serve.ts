/**
 * The production server: one node:http server in front of Next (server/ops/http-server.ts). REST
 * calls under /api/v1 and the health probes go straight to their handlers (the same functions
 * Next's route handlers call); everything else (console, /api/trpc, /api/auth, /docs, the OpenAPI
 * document) goes to Next. Next's per-request routing and rendering machinery costs more CPU than a
 * whole REST request, so the API skips it (docs/benchmarks/tenants-api.md). Start-up (migrations, bootstrap,
 * housekeeping) runs first; SIGTERM drains gracefully (server/ops/shutdown.ts). WEB_CONCURRENCY
 * above 1 serves the port from that many processes (server/ops/cluster.ts).
 */
import v8 from "node:v8";
import next from "next";
import { env, EnvError } from "../server/env.ts";
import { prepareDatabase, startServer } from "../server/app/startup.ts";
import { serveInCluster } from "../server/ops/cluster.ts";
import { createAppServer } from "../server/ops/http-server.ts";
import { exitGracefullyOnSignals } from "../server/ops/shutdown.ts";

let port: number;
try {
  port = env().PORT;
} catch (error) {
  console.error(error instanceof EnvError ? error.message : String(error));
  process.exit(1);
}

// Prisma's query compiler is WebAssembly, and V8 recompiles hot WebAssembly with its optimizing
// tier in the background: 45 MB of RSS for no measurable gain (its plans are cached; the CPU per
// Prisma query is the same). Set before the first query compiles the module. Not with the
// embedded database, which is Postgres itself in WebAssembly and does gain (BENCHMARKS.md, Memory).
if (env().DATABASE_URL) v8.setFlagsFromString("--liftoff-only");
// After each full collection V8 lets the heap grow to up to 4× what is live before the next one.
// A request makes a lot of short-lived garbage, so under load a 125 MB live heap sat in 450 MB of
// reserved heap (600 MB RSS); 1.3× keeps it near 200 MB (300 MB RSS) at the same CPU per request.
v8.setFlagsFromString("--heap-growing-percent=30");

await serveInCluster({
  workers: env().WEB_CONCURRENCY,
  prepare: prepareDatabase,
  async serve() {
    await startServer();
    const app = next({ dev: false, dir: process.cwd(), port });
    const handleNext = app.getRequestHandler();
    await app.prepare();

    const appServer = createAppServer((req, res) => handleNext(req, res));
    appServer.server.keepAliveTimeout = 65_000;
    appServer.server.listen(port, () => {
      console.log(`Listening on port ${port}.`);
    });
    exitGracefullyOnSignals(appServer);
  },
});
