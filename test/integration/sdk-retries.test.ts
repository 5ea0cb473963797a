/**
 * The SDK's retries through a proxy that scripts faults in front of the real test server: a create
 * whose 201 is lost (replaced by a 503, or the connection dropped) is retried with the same
 * Idempotency-Key and creates exactly one resource; reads are retried; a write without a key is
 * not; retries can be turned off.
 */
import { expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { tenantWithMembers } from "../support/fixtures.ts";
import { sdkProxy } from "../support/sdk-proxy.ts";
import { ControlPlane, ControlPlaneError } from "../../sdk/src/index.ts";

const api = apiServer();
const proxied = sdkProxy(api);

const writes = (req: { method?: string; url?: string }) => req.method === "POST" && /\/webhooks$/.test(req.url ?? "");

async function setup(options: Partial<ConstructorParameters<typeof ControlPlane>[0]> = {}) {
  const world = await tenantWithMembers();
  proxied.current.passed.length = 0;
  const cp = new ControlPlane({ baseUrl: proxied.current.url, token: world.admin.token, retry: { baseDelayMs: 10 }, ...options });
  const direct = new ControlPlane({ baseUrl: api.url, token: world.admin.token });
  return { cp, direct, tenantId: world.tenant.id };
}

const hook = { url: "http://127.0.0.1:9/hook", events: ["user.created"] };

test.each(["503", "drop"] as const)("a create whose answer is lost (%s) is retried under its key: one webhook is created", async (kind) => {
  const { cp, direct, tenantId } = await setup();
  proxied.current.faults.push({ kind, when: "after", match: writes });
  const created = await cp.webhooks.create(tenantId, hook);

  const attempts = proxied.current.passed.filter((p) => p.method === "POST");
  expect(attempts.map((a) => [a.status, a.replayed])).toEqual([
    [201, false], // created; its answer lost on the way back
    [201, true], // the retry: the stored answer replayed
  ]);
  expect(attempts[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  expect(attempts[1]!.idempotencyKey).toBe(attempts[0]!.idempotencyKey);
  expect((await direct.webhooks.list(tenantId).toArray()).map((w) => w.id)).toEqual([created.id]);
});

test("a 503 before the server saw the create: the retry creates it once", async () => {
  const { cp, direct, tenantId } = await setup();
  proxied.current.faults.push({ kind: "503", when: "before", match: writes });
  await cp.webhooks.create(tenantId, hook, { idempotencyKey: "my-own-key-1" });
  expect(proxied.current.passed.map((p) => [p.status, p.idempotencyKey])).toEqual([
    [null, "my-own-key-1"],
    [201, "my-own-key-1"],
  ]);
  expect(await direct.webhooks.list(tenantId).toArray()).toHaveLength(1);
});

test("reads are retried after a dropped connection and a 503", async () => {
  const { cp, tenantId } = await setup();
  proxied.current.faults.push(
    { kind: "drop", when: "before", match: (r) => r.method === "GET" },
    { kind: "503", when: "before", match: (r) => r.method === "GET" },
  );
  expect((await cp.tenants.get(tenantId)).id).toBe(tenantId);
  expect(proxied.current.passed.map((p) => p.status)).toEqual([null, null, 200]);
});

test("without an Idempotency-Key a create is not retried: the 503 is the caller's to handle", async () => {
  const { cp, direct, tenantId } = await setup({ idempotencyKeys: false });
  proxied.current.faults.push({ kind: "503", when: "after", match: writes });
  const error = await cp.webhooks.create(tenantId, hook).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ControlPlaneError);
  expect(error).toMatchObject({ status: 503, code: "http_503" });
  expect(proxied.current.passed).toHaveLength(1);
  expect(proxied.current.passed[0]!.idempotencyKey).toBeUndefined();
  expect(await direct.webhooks.list(tenantId).toArray()).toHaveLength(1); // it was created: only a key makes a retry safe
});

test("retry: false gives up at once; a network failure is a ControlPlaneError with status 0", async () => {
  const { cp, tenantId } = await setup({ retry: false });
  proxied.current.faults.push({ kind: "drop", when: "before", match: (r) => r.method === "GET" });
  const error = await cp.tenants.get(tenantId).catch((e: unknown) => e);
  expect(error).toMatchObject({ status: 0, code: "network_error" });
  expect(proxied.current.passed).toHaveLength(1);
});
