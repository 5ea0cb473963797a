/**
 * scripts/serve.ts without Next: the same start-up and the same handlers for /api/v1/* (handleRest)
 * and /api/scim/v2/* (handleScimRequest), and nothing else (no console, no OpenAPI document). For API benchmarks on a machine
 * where a production build of the console is not at hand (`--api-only`): what an /api/v1 request
 * runs is identical, serve.ts hands those requests to the same function. WEB_CONCURRENCY workers
 * as serve.ts.
 */
import http from "node:http";
import { env } from "../server/env.ts";
import { prepareDatabase, startServer } from "../server/app/startup.ts";
import { serveInCluster, SHUTDOWN_MESSAGE } from "../server/ops/cluster.ts";
import { handleRest } from "../server/http/rest.ts";
import { handleScimRequest, SCIM_PREFIX } from "../server/http/scim.ts";
import { readWebRequest, sendWebResponse, settleClientAddress } from "../server/http/node.ts";
import { SECURITY_HEADERS } from "../security-headers.mjs";

const port = env().PORT;
await serveInCluster({
  workers: env().WEB_CONCURRENCY,
  prepare: prepareDatabase,
  async serve() {
    await startServer();
    const server = http.createServer((req, res) => {
      const path = (req.url ?? "/").split("?")[0]!;
      if (path === "/healthz") {
        res.writeHead(200).end("ok");
        return;
      }
      for (const { key, value } of SECURITY_HEADERS) res.setHeader(key, value);
      // As the node server does where requests enter: the client address is the socket's.
      settleClientAddress(req, false);
      readWebRequest(req, `http://${req.headers.host ?? `localhost:${port}`}`, { aside: true })
        .then(path.startsWith(`${SCIM_PREFIX}/`) ? handleScimRequest : handleRest)
        .then((response) => sendWebResponse(res, response))
        .catch(() => {
          if (!res.headersSent) res.writeHead(500);
          res.end();
        });
    });
    server.keepAliveTimeout = 65_000;
    server.listen(port, () => console.log(`Listening on port ${port}.`));
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(0));
    process.on("message", (message) => message === SHUTDOWN_MESSAGE && process.exit(0));
  },
});
