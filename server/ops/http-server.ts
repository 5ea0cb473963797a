/**
 * The production node:http server (scripts/serve.ts). The routes the route table (routes.ts) marks
 * direct (REST calls under /api/v1, the health probes, the metrics scrape) are answered here;
 * everything else goes to `fallback` (Next).
 * It also knows which requests are in flight, so a stopping instance can stop accepting, finish
 * them, and close its keep-alive connections without cutting a request (`drain`).
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import net, { type Socket } from "node:net";
import { readWebRequest, sendWebResponse, settleClientAddress } from "../http/node.ts";
import { env } from "../env.ts";
import { log, errorFields } from "../log.ts";
import { SECURITY_HEADERS } from "../../security-headers.mjs";
import { isDraining } from "../jobs/draining.ts";
import { observeHttpRequest } from "../metrics.ts";
import { directFor, labelOf, refuseAtEntry, routeFor, type Handler, type Route } from "./routes.ts";
import { limitAtEntry } from "./entry-limit.ts";
import { HSTS, servedOverHttps } from "./csp.ts";

/**
 * Keep-alive connections idle when the drain starts stay open this long, so a client that sends
 * on one right then is answered (with Connection: close) rather than reset.
 */
const IDLE_GRACE_MS = 500;

export type Fallback = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface AppServer {
  server: http.Server;
  /** Requests received and not yet answered (or aborted). */
  inFlight(): number;
  /**
   * Stops accepting connections, lets in-flight requests finish (later requests on open
   * connections are answered with Connection: close), then closes every connection. Resolves
   * `{ forced: true }` if requests were still running at the deadline (they are cut then).
   */
  drain(timeoutMs: number): Promise<{ forced: boolean }>;
}

/** Next's routes: those open to callers without a token are counted per address first (entry-limit.ts). */
async function serveThroughNext(route: Route | undefined, req: IncomingMessage, res: ServerResponse, fallback: Fallback): Promise<void> {
  if (route?.perIp) {
    const { refused, headers } = await limitAtEntry(route, req);
    if (refused) return sendWebResponse(res, refused);
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  }
  await fallback(req, res);
}

function serveDirect(handler: Handler, request: Request, res: ServerResponse): void {
  Promise.resolve(handler(request))
    .then((response) => sendWebResponse(res, response))
    .catch((error) => {
      log.error("HTTP transport failed", errorFields(error));
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/problem+json" });
      res.end();
    });
}

export function createAppServer(fallback: Fallback): AppServer {
  let active = 0;
  let idleWaiters: (() => void)[] = [];
  const sockets = new Set<Socket>();

  const trustProxy = env().TRUST_PROXY;
  const server = http.createServer((req, res) => {
    // Before anything reads it, Next included: the client address is the socket's, or a trusted proxy's word.
    settleClientAddress(req, trustProxy);
    const path = (req.url ?? "/").split("?")[0]!;
    const route = routeFor(path);
    const started = process.hrtime.bigint();
    active += 1;
    res.once("close", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      observeHttpRequest(req.method ?? "GET", labelOf(route, path), res.writableFinished ? res.statusCode : "aborted", seconds);
      active -= 1;
      if (active === 0) for (const resolve of idleWaiters.splice(0)) resolve();
    });
    // Draining: answer, then close the connection, so the client reconnects to another instance.
    if (isDraining()) res.setHeader("Connection", "close");
    const refused = refuseAtEntry(route, req, trustProxy);
    if (refused) {
      void sendWebResponse(res, refused);
      return;
    }

    const direct = directFor(route, req.method ?? "GET");
    if (!direct) {
      void serveThroughNext(route, req, res, fallback);
      return;
    }
    const origin = `http://${req.headers.host ?? "localhost"}`;
    for (const { key, value } of SECURITY_HEADERS) res.setHeader(key, value);
    if (servedOverHttps((name) => req.headers[name]?.toString() ?? null)) res.setHeader("Strict-Transport-Security", HSTS);
    readWebRequest(req, origin, { aside: direct.bodyAside }).then(
      (request) => serveDirect(direct.handler, request, res),
      // The client went away before its body arrived: nobody to answer.
      () => res.destroy(),
    );
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });

  const requestsDone = () => (active === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve)));

  return {
    server,
    inFlight: () => active,
    async drain(timeoutMs) {
      // net.Server's close stops listening only; http.Server's would also drop idle keep-alive
      // connections at once, racing clients that are sending on them this very moment.
      net.Server.prototype.close.call(server);
      const deadline = Date.now() + timeoutMs;
      const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());
      await sleep(Math.min(IDLE_GRACE_MS, timeoutMs));
      while (active > 0 && Date.now() < deadline) await Promise.race([requestsDone(), sleep(deadline - Date.now())]);
      const forced = active > 0;
      // No request runs now (or the deadline passed): what is still open is idle, or is cut.
      for (const socket of sockets) socket.destroy();
      idleWaiters = [];
      return { forced };
    },
  };
}
