/**
 * A real HTTP server on 127.0.0.1 that serves the app's route handlers (the same functions Next
 * calls), so tests exercise the REST edge over real HTTP without a production build.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { readWebRequest, sendWebResponse } from "../../server/http/node.ts";
import * as rest from "../../app/api/v1/[...path]/route.ts";
import { handleRest } from "../../server/http/rest.ts";
import * as openapi from "../../app/api/v1/openapi.json/route.ts";
import * as fallback from "../../app/api/[...path]/route.ts";
import * as cron from "../../app/api/cron/route.ts";
import * as cronAlias from "../../app/api/cron/webhooks/route.ts";
import * as samlMetadata from "../../app/api/sso/saml/[providerId]/metadata/route.ts";
import * as samlPost from "../../app/api/sso/saml/[providerId]/post/route.ts";
import * as samlAcs from "../../app/api/sso/saml/[providerId]/acs/route.ts";
import * as ssoSignIn from "../../app/api/sso/signin/route.ts";
import * as oidcCallback from "../../app/api/sso/oidc/[providerId]/callback/route.ts";
import * as ssoAuthorize from "../../app/api/sso/authorize/route.ts";
import * as ssoToken from "../../app/api/sso/token/route.ts";
import * as ssoProfile from "../../app/api/sso/profile/route.ts";

type Handler = (req: Request, ctx?: { params: Promise<Record<string, string>> }) => Response | Promise<Response>;

/** Routes with a path parameter, matched as Next matches them. */
const PARAM_ROUTES: [RegExp, Record<string, unknown>, string][] = [
  [/^\/api\/sso\/saml\/([^/]+)\/metadata$/, samlMetadata, "providerId"],
  [/^\/api\/sso\/saml\/([^/]+)\/post$/, samlPost, "providerId"],
  [/^\/api\/sso\/saml\/([^/]+)\/acs$/, samlAcs, "providerId"],
  [/^\/api\/sso\/oidc\/([^/]+)\/callback$/, oidcCallback, "providerId"],
];

function route(method: string, pathname: string): Handler | undefined {
  const pick = (mod: Record<string, unknown>) => mod[method] as Handler | undefined;
  if (pathname === "/api/v1/openapi.json") return pick(openapi);
  if (pathname.startsWith("/api/v1/") || pathname === "/api/v1") return pick(rest);
  if (pathname === "/api/cron") return pick(cron);
  if (pathname === "/api/cron/webhooks") return pick(cronAlias);
  for (const [pattern, mod, param] of PARAM_ROUTES) {
    const match = pattern.exec(pathname);
    const handler = match && pick(mod);
    if (handler) return (req) => handler(req, { params: Promise.resolve({ [param]: decodeURIComponent(match[1]!) }) });
  }
  if (pathname === "/api/sso/signin") return pick(ssoSignIn);
  if (pathname === "/api/sso/authorize") return pick(ssoAuthorize);
  if (pathname === "/api/sso/token") return pick(ssoToken);
  if (pathname === "/api/sso/profile") return pick(ssoProfile);
  if (pathname.startsWith("/api/")) return pick(fallback);
  return undefined;
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
      const handler = route(req.method ?? "GET", new URL(req.url ?? "/", "http://127.0.0.1").pathname);
      // As the production server (server/ops/http-server.ts): the REST edge takes small bodies read aside.
      const request = await readWebRequest(req, `http://127.0.0.1:${address.port}`, { aside: handler === handleRest });
      await sendWebResponse(res, handler ? await handler(request) : new Response("not found", { status: 404 }));
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
