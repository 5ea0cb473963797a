/**
 * While the database is unreachable the API answers 503 `unavailable` with Retry-After (which
 * clients and the SDK retry), not an opaque 500, and the readiness probe says the database
 * failed. Issue 21 ("Also").
 */
import { beforeAll, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, tenantWithMembers } from "../support/fixtures.ts";
import { connectPostgres, database, setDatabase, type Database } from "../../server/db/client.ts";

const api = apiServer();
let real: Database;
beforeAll(async () => {
  real = await database();
});

/** Runs `fn` with the app pointed at a port nothing listens on. */
async function withDatabaseDown<T>(fn: () => Promise<T>): Promise<T> {
  const dead = connectPostgres("postgresql://postgres@127.0.0.1:1/nothing", 1);
  setDatabase(dead);
  try {
    return await fn();
  } finally {
    setDatabase(real);
    await dead.close();
  }
}

test("REST: 503 unavailable with Retry-After, and the API recovers when the database is back", async () => {
  const { tenant, admin } = await tenantWithMembers();
  const res = await withDatabaseDown(() => client(api.url, admin.token).get(`/api/v1/tenants/${tenant.id}`));
  expect(res.status).toBe(503);
  expect(res.headers.get("content-type")).toContain("application/problem+json");
  expect(res.headers.get("retry-after")).toBe("5");
  expect(res.json).toMatchObject({ code: "unavailable", status: 503, title: "Service unavailable" });
  expect((await client(api.url, admin.token).get(`/api/v1/tenants/${tenant.id}`)).status).toBe(200);
});

test("an anonymous operation that reaches the database answers the same", async () => {
  const res = await withDatabaseDown(() => client(api.url).post("/api/v1/auth/password-reset", { email: "someone@example.com" }));
  expect(res.status).toBe(503);
  expect(res.json.code).toBe("unavailable");
});

test("the readiness probe names the database as what failed", async () => {
  const res = await withDatabaseDown(() => client(api.url).get("/api/health/ready"));
  expect(res.status).toBe(503);
  expect(res.json).toMatchObject({ status: "unavailable", checks: { database: "failed" } });
});
