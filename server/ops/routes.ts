/**
 * The route table: every path the app answers other than its pages, once. The production server
 * (http-server.ts) reads it for what it serves itself and for the metric label of every request;
 * the test server (test/support/api.ts) for which route file Next would call; and
 * test/unit/route-table.test.ts holds it to the app/ tree. A new surface is a row here and its
 * route file.
 *
 * `path` is written as the app/ tree spells it and matched with Next's precedence (server/contract/path-trie.ts),
 * so a row matches exactly the requests Next sends to its route file, whatever the rows' order.
 */
import { handleRest } from "../http/rest.ts";
import { handleScimRequest } from "../http/scim.ts";
import { openApiDocument } from "../http/openapi.ts";
import { liveResponse, readyResponse } from "./health.ts";
import { metricsResponse } from "./scrape.ts";
import { PathTrie, nextSegments, templateSegments } from "../contract/path-trie.ts";
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { isCrossSiteWrite } from "./cross-site.ts";
import { problemResponse } from "../contract/problem.ts";
import { decodeQueryText } from "../contract/fields.ts";
import { appUrl } from "../env.ts";

export type Handler = (req: Request) => Response | Promise<Response>;

/** How the node server answers a route itself, without Next. */
export interface Direct {
  handler: Handler;
  /** Only these methods (others go through Next); every method if absent. */
  methods?: ReadonlySet<string>;
  /** The handler reads small bodies with `bodyReadAside`, so they are kept beside the Request (node.ts). */
  bodyAside?: boolean;
}

export interface Route {
  /** Next's syntax: `[param]`, `[...rest]`. */
  path: string;
  /** The metric label: a template, never the raw path (ids would make a series per resource). */
  label: string | ((path: string) => string);
  /** The route file Next serves the path from (and the test server imports); null: Next's own. */
  file: string | null;
  /** Served by the node server itself: cheap, and independent of Next's rendering machinery. */
  direct?: Direct;
  /**
   * Takes writes that other sites make browsers send with cookies (the SAML ACS: the IdP's page
   * posts the response; RelayState, InResponseTo and the binding cookie protect it). Every other
   * route refuses them (cross-site.ts isCrossSiteWrite).
   */
  crossSite?: true;
  /**
   * A sign-in entry a form can post to: it refuses writes from other sites even from a browser
   * that holds no cookie of ours, which another site's page could otherwise sign in (login CSRF:
   * into the attacker's account, or a sign-in the visitor then completes at the IdP).
   */
  signIn?: true;
  /**
   * Answers callers without an API token at Next's cost (sign-in hashes a password, the broker
   * looks up a client and its secret): every request is counted per client address where it
   * enters, and refused past RATE_LIMIT_PER_IP_CONSOLE before Next runs (entry-limit.ts).
   */
  perIp?: true;
}

/** A row whose route file is where Next looks for `path`: app/<path>/route.ts. */
const route = (path: string, label: Route["label"], direct?: Direct): Route => ({ path, label, file: `app${path}/route.ts`, direct });
/** A row Next serves to callers without a token: limited per client address at entry. */
const perIpRoute = (path: string, label: string): Route => ({ ...route(path, label), perIp: true });

const READS: ReadonlySet<string> = new Set(["GET", "HEAD"]);

export const ROUTES: readonly Route[] = [
  route("/api/v1/[...path]", restLabel, { handler: handleRest, bodyAside: true }),
  route("/api/v1/openapi.json", "/api/v1/openapi.json"),
  // SCIM 2.0 for identity providers (Directory Sync): the directory's own bearer token.
  route("/api/scim/v2/[...path]", scimLabel, { handler: handleScimRequest, bodyAside: true }),
  route("/api/health/live", "/api/health/live", { handler: liveResponse, methods: READS }),
  route("/api/health/ready", "/api/health/ready", { handler: readyResponse, methods: READS }),
  route("/api/metrics", "/api/metrics", { handler: metricsResponse, methods: READS }),
  route("/api/cron", "/api/cron"),
  route("/api/cron/webhooks", "/api/cron/webhooks"),
  perIpRoute("/api/trpc/[trpc]", "/api/trpc/{procedure}"),
  // next-auth's posts also carry its CSRF token (double-submit cookie); the entry's refusal is the first line.
  { ...perIpRoute("/api/auth/[...nextauth]", "/api/auth/{action}"), signIn: true },
  perIpRoute("/api/console/tenants/[tenantId]/audit/export", "/api/console/tenants/{tenant_id}/audit/export"),
  perIpRoute("/api/console/audit/export", "/api/console/audit/export"),
  { ...perIpRoute("/api/sso/signin", "/api/sso/signin"), signIn: true },
  perIpRoute("/api/sso/authorize", "/api/sso/authorize"),
  perIpRoute("/api/sso/token", "/api/sso/token"),
  perIpRoute("/api/sso/profile", "/api/sso/profile"),
  perIpRoute("/api/sso/oidc/[providerId]/callback", "/api/sso/oidc/{provider_id}/callback"),
  perIpRoute("/api/sso/saml/[providerId]/metadata", "/api/sso/saml/{provider_id}/metadata"),
  perIpRoute("/api/sso/saml/[providerId]/post", "/api/sso/saml/{provider_id}/post"),
  { ...perIpRoute("/api/sso/saml/[providerId]/acs", "/api/sso/saml/{provider_id}/acs"), crossSite: true },
  perIpRoute("/api/setup/trpc/[trpc]", "/api/setup/trpc/{procedure}"),
  perIpRoute("/setup/[token]", "/setup/{token}"),
  // Any other /api path: a problem+json 404 rather than an HTML page.
  route("/api/[...path]", "{unmatched}"),
  route("/favicon.ico", "/favicon.ico"),
  route("/docs", "/docs"),
  route("/docs/assets/[file]", "/docs/assets/{file}"),
  // Next's own (built assets): no route file.
  { path: "/_next/[...asset]", label: "/_next/{asset}", file: null },
];

const table = new PathTrie<Route>();
for (const row of ROUTES) table.add(nextSegments(row.path), row);

/** The row that serves `path` (no query string), as Next would pick it; none for pages. */
export function routeFor(path: string): Route | undefined {
  return table.match(path.split("/"), 1);
}

/** How the node server answers `method` on `route` itself, if it does (else Next does). */
export function directFor(route: Route | undefined, method: string): Direct | undefined {
  const direct = route?.direct;
  return direct && (!direct.methods || direct.methods.has(method)) ? direct : undefined;
}

/** The metric label of a request to `path`, which `route` (from `routeFor`) serves. */
export function labelOf(route: Route | undefined, path: string): string {
  if (!route) return "{page}";
  return typeof route.label === "string" ? route.label : route.label(path);
}

/**
 * What the server refuses where a request enters, before any route sees it (null: serve it):
 * - a write another site made this browser send with its cookies (login CSRF, or acting in the
 *   console as the visitor), or without them on a sign-in entry: 403;
 * - on a route Next serves, a query parameter that cannot be stored as text (NUL, lone
 *   surrogates, escapes that are not UTF-8): 400 naming it, as the REST edge and the console's
 *   procedures already answer for theirs (a NUL in /api/sso/authorize's client_id reached Postgres).
 */
export function refuseAtEntry(route: Route | undefined, req: IncomingMessage, trustProxy: boolean): Response | null {
  const origin = () => `http://${req.headers.host ?? "localhost"}`;
  if (!route?.crossSite && isCrossSiteWrite(req, trustProxy, new URL(appUrl()).host, { withoutCookies: route?.signIn })) {
    const detail = route?.signIn
      ? "Cross-site request refused: a page on another site may not start a sign-in in this browser"
      : "Cross-site request refused: a page on another site may not act with this browser's session";
    return problemResponse({ code: "forbidden", detail }, randomUUID(), origin());
  }
  const at = req.url?.indexOf("?") ?? -1;
  if (at === -1 || route?.direct) return null;
  const query = decodeQueryText(req.url!.slice(at));
  if (query.ok) return null;
  const problem = {
    code: "invalid_request" as const,
    detail: `${query.name}: ${query.problem}`,
    errors: [{ path: query.name, message: query.problem }],
  };
  return problemResponse(problem, randomUUID(), origin());
}

export function routeOf(path: string): string {
  return labelOf(routeFor(path), path);
}

/** `/api/scim/v2/{directory_id}/Users/{id}`: the resource's name (any case, as IdPs send it) kept, ids never. */
function scimLabel(path: string): string {
  const [, resource, id] = path.slice("/api/scim/v2/".length).split("/");
  const known = ["Users", "Groups", "ServiceProviderConfig", "ResourceTypes", "Schemas"].find(
    (name) => name.toLowerCase() === resource?.toLowerCase(),
  );
  if (!known) return "/api/scim/v2/{directory_id}/{unmatched}";
  return `/api/scim/v2/{directory_id}/${known}${id ? "/{id}" : ""}`;
}

const REST_PREFIX = "/api/v1";
let restTemplates: PathTrie<string> | undefined;

/** A REST path's label is its operation's template in the OpenAPI document: `/api/v1/tenants/{tenant_id}/audit`. */
function restLabel(path: string): string {
  restTemplates ??= buildRestTemplates();
  // The REST edge takes a path with a trailing slash as the same operation.
  const end = path.endsWith("/") ? path.length - 1 : path.length;
  return restTemplates.match(path.slice(REST_PREFIX.length, end).split("/"), 1) ?? "{unmatched}";
}

function buildRestTemplates(): PathTrie<string> {
  const templates = new PathTrie<string>();
  for (const [template, item] of Object.entries(openApiDocument("").paths ?? {})) {
    // An item with its own `servers` lives outside /api/v1 (the OAuth broker's): a row of its own.
    if (item && "servers" in item) continue;
    templates.add(templateSegments(template), `${REST_PREFIX}${template}`);
  }
  return templates;
}
