/**
 * A deeply nested JSON body is a 400 naming where it nests too deep, never a 500: a 6,000-level
 * body to an anonymous endpoint once answered `Maximum call stack size exceeded` (the storable-text
 * walk recursed without a bound). Issue 21, finding 9.
 */
import { expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, tenantWithMembers } from "../support/fixtures.ts";
import { MAX_JSON_DEPTH } from "../../server/contract/fields.ts";

const api = apiServer();

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

test("REST: 6,000 levels deep to an anonymous endpoint is a 400 naming the field", async () => {
  const res = await client(api.url).post("/api/v1/auth/password-reset", `{"email":${nested(6000)}}`);
  expect(res.status).toBe(400);
  expect(res.json.code).toBe("invalid_request");
  expect(res.json.errors[0].path).toMatch(/^email(\.0)+$/);
  expect(res.json.errors[0].message).toBe(`must not nest deeper than ${MAX_JSON_DEPTH} levels`);
});

test("REST: free-form JSON (audit details) nests at most MAX_JSON_DEPTH levels", async () => {
  const { tenant, admin } = await tenantWithMembers();
  const append = (depth: number) =>
    client(api.url, admin.token).post(
      `/api/v1/tenants/${tenant.id}/audit`,
      `{"event_type":"deploy.finished","actor":{"id":"ci"},"details":{"x":${nested(depth)}}}`,
    );
  const deep = await append(MAX_JSON_DEPTH + 5);
  expect(deep.status).toBe(400);
  expect(deep.json.errors[0]).toMatchObject({ message: `must not nest deeper than ${MAX_JSON_DEPTH} levels` });
  expect(deep.json.errors[0].path).toMatch(/^details\.x(\.0)+$/);
  expect((await append(10)).status).toBe(201);
});

test("console (tRPC): the same body is a 400, not a 500", async () => {
  const res = await client(api.url).post("/api/trpc/account.requestPasswordReset", `{"email":${nested(6000)}}`);
  expect(res.status).toBe(400);
  expect(JSON.stringify(res.json)).toContain("must not nest deeper");
});
