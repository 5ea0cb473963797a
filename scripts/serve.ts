/**
 * The production server: one node:http server in front of Next. REST calls under /api/v1 go
 * straight to the REST edge (server/http/rest.ts, the same function Next's route handler calls);
 * everything else (console, /api/trpc, /api/auth, /docs, the OpenAPI document) goes to Next.
 * Next's per-request routing and rendering machinery costs more CPU than a whole REST request,
 * so the API skips it (BENCHMARKS.md). Start-up (migrations, bootstrap, housekeeping) runs first.
 */
import http from "node:http";
import next from "next";
import { env, EnvError } from "../server/env.ts";
import { startServer } from "../server/startup.ts";
import { handleRest } from "../server/http/rest.ts";
import { sendWebResponse, toWebRequest } from "../server/http/node.ts";
import { log, errorFields } from "../server/log.ts";
import { SECURITY_HEADERS } from "../security-headers.mjs";

const REST_PREFIX = "/api/v1/";
const NEXT_ONLY = new Set(["/api/v1/openapi.json"]);

let port: number;
try {
  port = env().PORT;
} catch (error) {
  console.error(error instanceof EnvError ? error.message : String(error));
  process.exit(1);
}

await startServer();
const app = next({ dev: false, dir: process.cwd(), port });
const handleNext = app.getRequestHandler();
await app.prepare();

const server = http.createServer((req, res) => {
  const path = (req.url ?? "/").split("?")[0]!;
  if (path.startsWith(REST_PREFIX) && !NEXT_ONLY.has(path)) {
    const origin = `http://${req.headers.host ?? `localhost:${port}`}`;
    for (const { key, value } of SECURITY_HEADERS) res.setHeader(key, value);
    handleRest(toWebRequest(req, origin))
      .then((response) => sendWebResponse(res, response))
      .catch((error) => {
        log.error("REST transport failed", errorFields(error));
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/problem+json" });
        res.end();
      });
    return;
  }
  void handleNext(req, res);
});
server.keepAliveTimeout = 65_000;
server.listen(port, () => {
  console.log(`Listening on port ${port}.`);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close();
    process.exit(0);
  });
}
