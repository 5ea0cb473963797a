/**
 * A real HTTP server on 127.0.0.1 that serves the app's routes as production does, by the route
 * table (server/ops/routes.ts): what the node server answers itself by the same handler, and what
 * goes through Next by the route file Next would call, so tests exercise the REST edge and the
 * other routes over real HTTP without a production build.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath, pathToFileURL } from "node:url";
import { readWebRequest, sendWebResponse, settleClientAddress } from "../../server/http/node.ts";
import { env } from "../../server/env.ts";
import { directFor, refuseAtEntry, routeFor, type Handler } from "../../server/ops/routes.ts";
import { limitAtEntry } from "../../server/ops/entry-limit.ts";
import { nextSegments, paramsOf } from "../../server/contract/path-trie.ts";
import { checkResponse } from "./response-contract.ts";

type RouteHandler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Response | Promise<Response>;

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const routeFiles = new Map<string, Promise<Record<string, unknown>>>();

/** Imported on first use: most tests call a few routes, and some route files load much (NextAuth). */
function routeFile(file: string): Promise<Record<string, unknown>> {
  let loaded = routeFiles.get(file);
  if (!loaded) routeFiles.set(file, (loaded = import(pathToFileURL(`${ROOT}${file}`).href) as Promise<Record<string, unknown>>));
  return loaded;
}

export interface Served {
  handler: Handler;
  /** Small bodies are kept beside the Request (node.ts), as the production server does for this handler. */
  bodyAside: boolean;
}

/** What answers `method` on `pathname` (undecoded), as in production; undefined where Next would not serve it (a page, a method the file lacks). */
export async function servedBy(method: string, pathname: string): Promise<Served | undefined> {
  const route = routeFor(pathname);
  const direct = directFor(route, method);
  if (direct) return { handler: direct.handler, bodyAside: direct.bodyAside ?? false };
  if (!route?.file) return undefined;
  const handler = (await routeFile(route.file))[method] as RouteHandler | undefined;
  if (!handler) return undefined;
  // Next hands a route its parameters decoded.
  const raw = paramsOf(nextSegments(route.path), pathname.split("/"), 1);
  const params = Object.fromEntries(
    Object.entries(raw).map(([name, value]) => [name, Array.isArray(value) ? value.map(decodeURIComponent) : decodeURIComponent(value)]),
  );
  return { handler: (req) => handler(req, { params: Promise.resolve(params) }), bodyAside: false };
}

export interface TestApi {
  url: string;
  close(): Promise<void>;
}

/** `port` 0 picks a free one; a fixed port lets a test set APP_URL before the app reads it. */
export async function startApi(port = 0): Promise<TestApi> {
  const server = http.createServer(async (req, res) => {
    try {
      const address = server.address() as AddressInfo;
      // As the production server (server/ops/http-server.ts): the client address is settled
      // first, a write another site made a browser send with its cookies is refused, and the
      // routes open to callers without a token are counted per address.
      settleClientAddress(req, env().TRUST_PROXY);
      const pathname = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
      const route = routeFor(pathname);
      const refused = refuseAtEntry(route, req, env().TRUST_PROXY);
      if (refused) return await sendWebResponse(res, refused);
      const limited = await limitAtEntry(route, req);
      if (limited.refused) return await sendWebResponse(res, limited.refused);
      for (const [name, value] of Object.entries(limited.headers)) res.setHeader(name, value);
      const served = await servedBy(req.method ?? "GET", pathname);
      const request = await readWebRequest(req, `http://127.0.0.1:${address.port}`, { aside: served?.bodyAside });
      const response = served ? await served.handler(request) : new Response("not found", { status: 404 });
      // Checked against the OpenAPI document (response-contract.ts); the test file fails at its end on a mismatch.
      checkResponse(request.method, pathname, response);
      await sendWebResponse(res, response);
    } catch (error) {
      res.writeHead(599);
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A port free right now (for APP_URL, which the app reads once). */
export async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
