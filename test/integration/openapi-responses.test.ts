/**
 * The check every integration file runs on the /api/v1 responses its tests receive
 * (test/support/response-contract.ts, failing the file from setup.ts): it finds a body that breaks
 * its schema, a status the operation does not document and an undocumented media type, and passes
 * responses that match, here on responses made to order and on real ones.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, createTenant, operator } from "../support/fixtures.ts";
import { checkResponse } from "../support/response-contract.ts";
import { takeResponseViolations } from "../support/response-violations.ts";

const api = apiServer();

const json = (status: number, body: unknown, type = "application/json") =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": type } });

const tenant = () => ({ id: randomUUID(), name: "Acme", created_at: new Date().toISOString() });

describe("the response check", () => {
  test("passes what the tests really receive, and leaves their bodies readable", async () => {
    const ops = client(api.url, (await operator()).token);
    const made = await createTenant();
    const res = await ops.get(`/api/v1/tenants/${made.id}`);
    expect(res.status).toBe(200);
    expect(res.json.id).toBe(made.id);
    expect((await ops.get(`/api/v1/tenants/${randomUUID()}`)).status).toBe(404);
    expect(await takeResponseViolations()).toEqual([]);
  });

  test("reports a body that breaks its schema, naming the field", async () => {
    const path = `/api/v1/tenants/${randomUUID()}`;
    checkResponse("GET", path, json(200, { ...tenant(), id: "not-a-uuid", created_at: "…" }));
    const [violation, ...rest] = await takeResponseViolations();
    expect(rest).toEqual([]);
    expect(violation).toContain(`GET ${path} → 200: the body does not match its schema`);
    expect(violation).toContain("/id");
    expect(violation).toContain("/created_at");
  });

  test("reports a status the operation does not document, and a media type its status does not", async () => {
    const path = `/api/v1/tenants/${randomUUID()}`;
    checkResponse("GET", path, json(418, {}));
    checkResponse("GET", path, json(404, { message: "no" }));
    checkResponse("GET", path, new Response("x,y\n", { status: 200, headers: { "content-type": "text/csv" } }));
    expect(await takeResponseViolations()).toEqual([
      `GET ${path} → 418: the operation documents no 418`,
      `GET ${path} → 404: application/json is not documented (documented: application/problem+json)`,
      `GET ${path} → 200: text/csv is not documented (documented: application/json)`,
    ]);
  });

  test("leaves what no operation answers to the edge's own tests: unknown paths, missing methods", async () => {
    checkResponse("GET", "/api/v1/no-such-thing", json(404, {}));
    checkResponse("PUT", `/api/v1/tenants/${randomUUID()}`, json(405, {}));
    expect(await takeResponseViolations()).toEqual([]);
  });
});
