/**
 * The SDK waits out a real 429 of the server's rate limiter (a low per-token quota for this file):
 * it honours Retry-After and the call succeeds; a wait longer than the SDK's cap is not waited but
 * thrown as `rate_limited`. The proxy only records what the server answered.
 */
import { expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { tenantWithMembers } from "../support/fixtures.ts";
import { sdkProxy } from "../support/sdk-proxy.ts";
import { ControlPlane, ControlPlaneError } from "../../sdk/src/index.ts";

process.env.RATE_LIMIT_PER_TOKEN = "2";
process.env.RATE_LIMIT_WINDOW_SECONDS = "2";

const api = apiServer();
const proxied = sdkProxy(api);

test("a 429 is waited out for as long as Retry-After says, then the call succeeds", async () => {
  const { admin, tenant } = await tenantWithMembers();
  const cp = new ControlPlane({ baseUrl: proxied.current.url, token: admin.token });
  proxied.current.passed.length = 0;
  // Five calls against a quota of two per window: at least one is refused, and each is waited out.
  for (let i = 0; i < 5; i++) expect((await cp.tenants.get(tenant.id)).id).toBe(tenant.id);
  const statuses = proxied.current.passed.map((p) => p.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(5);
  expect(statuses).toContain(429);
  expect(cp.transport.lastRateLimit).toMatchObject({ remaining: expect.any(Number) });
});

test("a Retry-After beyond maxDelayMs is thrown at once as rate_limited", async () => {
  const { admin, tenant } = await tenantWithMembers();
  const cp = new ControlPlane({ baseUrl: api.url, token: admin.token, retry: { maxDelayMs: 100 } });
  const error = await (async () => {
    for (let i = 0; i < 6; i++) await cp.tenants.get(tenant.id);
  })().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ControlPlaneError);
  expect(error).toMatchObject({ status: 429, code: "rate_limited" });
  expect((error as ControlPlaneError).headers?.get("retry-after")).toMatch(/^[12]$/);
});
