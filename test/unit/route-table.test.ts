/**
 * The route table (server/ops/routes.ts) against the app/ tree and the OpenAPI document: one row
 * per route file, and a metric label for every route and every REST
 * operation (never `{unmatched}`, never an id).
 */
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { ROUTES, directFor, routeFor, routeOf } from "../../server/ops/routes.ts";
import { handleRest } from "../../server/http/rest.ts";
import { openApiDocument } from "../../server/http/openapi.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const routeFiles = readdirSync(`${ROOT}app`, { recursive: true, encoding: "utf8" })
  .map((file) => `app/${file.split("\\").join("/")}`)
  .filter((file) => file.endsWith("/route.ts"))
  .sort();

/** A path the pattern matches: a parameter is an id, a catch-all two segments. */
const samplePath = (pattern: string) =>
  pattern.replace(/\[\.\.\.[^\]]+\]/g, "a1/b2").replace(/\[[^\]]+\]|\{[^}]+\}/g, "00000000-0000-4000-8000-000000000001");

describe("the route table and the app/ tree", () => {
  test("every route file in app/ has its row", () => {
    const inTable = new Set(ROUTES.map((route) => route.file));
    expect(routeFiles.filter((file) => !inTable.has(file))).toEqual([]);
  });

  test("every row's route file exists", () => {
    const files = ROUTES.flatMap((route) => (route.file ? [route.file] : []));
    expect(files.filter((file) => !existsSync(`${ROOT}${file}`))).toEqual([]);
  });

  test("one row per path, and each row is the one its paths reach (none shadowed)", () => {
    expect(new Set(ROUTES.map((route) => route.path)).size).toBe(ROUTES.length);
    for (const route of ROUTES) expect(routeFor(samplePath(route.path))?.path, route.path).toBe(route.path);
  });
});

describe("metric labels", () => {
  test("every route has its own label, a template without ids", () => {
    for (const route of ROUTES) {
      // The REST edge's operations are labelled by the OpenAPI document (below).
      if (typeof route.label !== "string") continue;
      const label = routeOf(samplePath(route.path));
      expect(label, route.path).toBe(route.label);
      expect(label).not.toMatch(/0000-4000/);
      // The catch-all for unknown /api paths is the one row that is `{unmatched}`.
      if (route.path !== "/api/[...path]") expect(label, route.path).not.toBe("{unmatched}");
    }
  });

  test("every REST operation is labelled by its template, a literal segment before a parameter", () => {
    const paths = Object.entries(openApiDocument("").paths ?? {});
    const rest = paths.filter(([, item]) => !(item && "servers" in item)).map(([template]) => template);
    expect(rest.length).toBeGreaterThan(20);
    for (const template of rest) {
      expect(routeOf(`/api/v1${samplePath(template)}`), template).toBe(`/api/v1${template}`);
      // `{event_id}` would also take "verify": the literal wins, as Next and the REST edge decide.
      expect(routeOf(`/api/v1${template.replace(/\{[^}]+\}/g, "x1")}/`), template).toBe(`/api/v1${template}`);
    }
    expect(routeOf("/api/v1/tenants/t1/audit/verify")).toBe("/api/v1/tenants/{tenant_id}/audit/verify");
    expect(routeOf("/api/v1/tenants/t1/audit/e1")).toBe("/api/v1/tenants/{tenant_id}/audit/{event_id}");
    expect(routeOf("/api/v1/no/such/operation")).toBe("{unmatched}");
    // The OAuth broker's operations are documented at their own paths, outside /api/v1.
    for (const [template, item] of paths) if (item && "servers" in item) expect(routeOf(template)).toBe(template);
  });

  test("pages are `{page}`, unknown /api paths `{unmatched}`", () => {
    expect(routeOf("/tenants/t1/members")).toBe("{page}");
    expect(routeOf("/")).toBe("{page}");
    expect(routeOf("/api/nothing/here")).toBe("{unmatched}");
    expect(routeOf("/api/metrics/")).toBe("{unmatched}");
  });
});

describe("what the node server answers itself", () => {
  test("REST calls (every method, bodies kept aside), probes and the scrape (GET, HEAD); not the OpenAPI document", () => {
    expect(directFor(routeFor("/api/v1/tenants"), "POST")).toMatchObject({ handler: handleRest, bodyAside: true });
    expect(directFor(routeFor("/api/v1/tenants/t1/members/u1"), "DELETE")?.handler).toBe(handleRest);
    expect(directFor(routeFor("/api/v1/openapi.json"), "GET")).toBeUndefined();
    for (const path of ["/api/health/live", "/api/health/ready", "/api/metrics"]) {
      expect(directFor(routeFor(path), "GET"), path).toBeDefined();
      expect(directFor(routeFor(path), "HEAD"), path).toBeDefined();
      expect(directFor(routeFor(path), "POST"), path).toBeUndefined();
      expect(directFor(routeFor(`${path}/`), "GET"), path).toBeUndefined();
    }
    for (const path of ["/api/sso/token", "/api/trpc/tenants.list", "/api/cron", "/docs", "/tenants"]) {
      expect(directFor(routeFor(path), "GET"), path).toBeUndefined();
    }
  });
});
