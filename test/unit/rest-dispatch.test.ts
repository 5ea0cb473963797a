/**
 * The REST edge's dispatch (server/http/openapi-handler.ts) finds, for every request, the
 * procedure trpc-to-openapi's handler would have: the first operation, in the router's order,
 * whose path pattern (its own helpers' regex) matches. And the edge's JSON answers, made without a
 * web stream (server/http/node.ts), read as any Response and go out whole over a real socket.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { once } from "node:events";
import { describe, expect, test } from "vitest";
import { forEachOpenApiProcedure, getPathRegExp, normalizePath } from "trpc-to-openapi";
import { appRouter } from "../../server/app/router.ts";
import { procedureAt } from "../../server/http/openapi-handler.ts";
import { sendWebResponse, textResponse } from "../../server/http/node.ts";

/** trpc-to-openapi's own matching, as its handler did it per request. */
function libraryProcedureAt(method: string, path: string): string | undefined {
  let found: string | undefined;
  forEachOpenApiProcedure(appRouter._def.procedures as never, ({ path: key, procedure, meta: { openapi } }) => {
    const type = (procedure as unknown as { _def: { type: string } })._def.type;
    if (found || type === "subscription" || openapi.method !== method) return;
    if (getPathRegExp(normalizePath(openapi.path)).test(normalizePath(path))) found = key;
  });
  return found;
}

const operations: { method: string; template: string }[] = [];
forEachOpenApiProcedure(appRouter._def.procedures as never, ({ meta: { openapi } }) =>
  operations.push({ method: openapi.method, template: openapi.path }),
);

/** Paths to try: every template with ids, with words that are also literal segments, and odd spellings. */
function probes(template: string): string[] {
  const fill = (value: string) => template.replace(/\{[^}]+\}/g, value);
  const id = fill("00000000-0000-4000-8000-000000000001");
  return [
    id,
    fill("verify"),
    fill("batch"),
    fill("export"),
    fill("a.b"),
    id.toUpperCase(),
    `${id}/`,
    `${id}x`,
    id.replace(".", "x"),
    id.replace(".", "/"),
  ];
}

describe("REST dispatch", () => {
  test("finds, for every method and probe path, the procedure trpc-to-openapi's handler found", () => {
    expect(operations.length).toBeGreaterThan(50);
    const methods = [...new Set(operations.map((o) => o.method)), "HEAD"];
    const differences: string[] = [];
    let compared = 0;
    for (const { template } of operations) {
      for (const path of probes(template)) {
        for (const method of methods) {
          const [ours, theirs] = [procedureAt(method, path), libraryProcedureAt(method, path)];
          compared += 1;
          if (ours !== theirs) differences.push(`${method} ${path}: ${ours} instead of ${theirs}`);
        }
      }
    }
    expect(compared).toBeGreaterThan(2000);
    expect(differences).toEqual([]);
  });

  test("a template with a regex character (/audit/jwks.json) is found, and only where its pattern matches", () => {
    expect(procedureAt("GET", "/audit/jwks.json")).toBe(libraryProcedureAt("GET", "/audit/jwks.json"));
    expect(procedureAt("GET", "/audit/jwks.json")).toBeDefined();
    expect(procedureAt("GET", "/audit/jwksXjson")).toBe(libraryProcedureAt("GET", "/audit/jwksXjson"));
    // Its "." matches any character, "/" too: a path one segment longer is still that operation.
    expect(libraryProcedureAt("GET", "/audit/jwks/json")).toBeDefined();
    expect(procedureAt("GET", "/audit/jwks/json")).toBe(libraryProcedureAt("GET", "/audit/jwks/json"));
  });
});

describe("the edge's JSON answers", () => {
  test("read as a Response: status, headers, text, JSON, a clone, the body stream", async () => {
    const make = () => textResponse('{"name":"Zoë"}', { status: 201, headers: [["Content-Type", "application/json"]] });
    const response = make();
    response.headers.set("RateLimit", '"per-token";r=9;t=60');
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.bodyUsed).toBe(false);
    expect(await response.clone().text()).toBe('{"name":"Zoë"}');
    expect(await response.json()).toEqual({ name: "Zoë" });
    expect(response.bodyUsed).toBe(true);
    expect(await new Response(make().body).text()).toBe('{"name":"Zoë"}');
    expect(textResponse("plain", { status: 200 }).headers.get("content-type")).toBe("text/plain;charset=UTF-8");
  });

  test("go out over a socket whole, with the length of their UTF-8 bytes", async () => {
    const body = JSON.stringify({ name: "Zoë – ünïcode ✓", items: Array.from({ length: 200 }, (_, i) => i) });
    const server = http.createServer((_req, res) => {
      const response = textResponse(body, { status: 200, headers: [["Content-Type", "application/json"]] });
      response.headers.set("X-Request-Id", "r1");
      void sendWebResponse(res, response);
    });
    // Port 0: a fixed one (34480 was) lies in the range the kernel hands out for outgoing
    // connections, and another part of the run held it once.
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-length")).toBe(String(Buffer.byteLength(body)));
      expect(answer.headers.get("x-request-id")).toBe("r1");
      expect(answer.headers.get("transfer-encoding")).toBeNull();
      expect(await answer.text()).toBe(body);
    } finally {
      server.close();
    }
  });
});
