/**
 * The SDK's retries and timeouts through a proxy that scripts faults in front of the real test
 * server: a create whose 201 is lost (replaced by a 503, or the connection dropped) is retried with
 * the same Idempotency-Key and creates exactly one resource; reads and keyed writes are retried
 * after 500, 502, 503 and 504, waiting what Retry-After asks; a write without a key is not; an
 * attempt that outlasts `timeout` is aborted (ControlPlaneTimeoutError) and retried, and a keyed
 * retry that finds its first attempt still running (409 `idempotency_key_in_use`) waits it out;
 * retries can be turned off.
 */
import { expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { db, tenantWithMembers } from "../support/fixtures.ts";
import { sdkProxy } from "../support/sdk-proxy.ts";
import { until } from "../support/until.ts";
import { ControlPlane, ControlPlaneError, ControlPlaneTimeoutError } from "../../sdk/src/index.ts";

const api = apiServer();
const proxied = sdkProxy(api);

const writes = (req: { method?: string; url?: string }) => req.method === "POST" && /\/webhooks$/.test(req.url ?? "");

async function setup(options: Partial<ConstructorParameters<typeof ControlPlane>[0]> = {}) {
  const world = await tenantWithMembers();
  proxied.current.passed.length = 0;
  proxied.current.faults.length = 0; // a failed test's unused faults must not leak into the next
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

const STATUSES = ["500", "502", "503", "504"] as const;

test.each(STATUSES)("a read and a keyed create answered %s are retried", async (kind) => {
  const { cp, direct, tenantId } = await setup();
  proxied.current.faults.push({ kind, when: "before", match: (r) => r.method === "GET" }, { kind, when: "before", match: writes });
  expect((await cp.tenants.get(tenantId)).id).toBe(tenantId);
  await cp.webhooks.create(tenantId, hook);
  expect(proxied.current.passed.map((p) => [p.method, p.status])).toEqual([
    ["GET", null],
    ["GET", 200],
    ["POST", null],
    ["POST", 201],
  ]);
  expect(await direct.webhooks.list(tenantId).toArray()).toHaveLength(1);
});

test("Retry-After is waited out; one longer than maxDelayMs is not waited but thrown", async () => {
  const { cp, tenantId } = await setup({ retry: { baseDelayMs: 10, maxDelayMs: 5_000 } });
  proxied.current.faults.push({ kind: "503", when: "before", retryAfter: "1", match: (r) => r.method === "GET" });
  await cp.tenants.get(tenantId);
  const [first, second] = proxied.current.passed;
  expect(second!.at - first!.at).toBeGreaterThanOrEqual(950); // 1 s asked; the backoff alone would be under 10 ms

  proxied.current.passed.length = 0;
  proxied.current.faults.length = 0; // a failed test's unused faults must not leak into the next
  proxied.current.faults.push({ kind: "502", when: "before", retryAfter: "60", match: (r) => r.method === "GET" });
  expect(await cp.tenants.get(tenantId).catch((e: unknown) => e)).toMatchObject({ status: 502, code: "http_502" });
  expect(proxied.current.passed).toHaveLength(1);
});

test("without Retry-After the retries back off (jittered) and stop at maxRetries", async () => {
  const { cp, tenantId } = await setup({ retry: { baseDelayMs: 10, maxRetries: 2 } });
  const get = (r: { method?: string }) => r.method === "GET";
  for (const kind of ["500", "504", "502"] as const) proxied.current.faults.push({ kind, when: "before", retryAfter: null, match: get });
  expect(await cp.tenants.get(tenantId).catch((e: unknown) => e)).toMatchObject({ status: 502 });
  expect(proxied.current.passed.map((p) => p.status)).toEqual([null, null, null]); // the first attempt and 2 retries
});

test.each(["500", "503"] as const)("without an Idempotency-Key a create is not retried: the %s is the caller's to handle", async (kind) => {
  const { cp, direct, tenantId } = await setup({ idempotencyKeys: false });
  proxied.current.faults.push({ kind, when: "after", match: writes });
  const error = await cp.webhooks.create(tenantId, hook).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ControlPlaneError);
  expect(error).toMatchObject({ status: Number(kind), code: `http_${kind}` });
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

test("an attempt without an answer within `timeout` is aborted: ControlPlaneTimeoutError, or a retry that succeeds", async () => {
  const { cp, tenantId } = await setup({ timeout: 300, retry: false });
  const started = Date.now();
  proxied.current.faults.push({ kind: "hang", when: "before", match: (r) => r.method === "GET" });
  const error = await cp.tenants.get(tenantId).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ControlPlaneTimeoutError);
  expect(error).toBeInstanceOf(ControlPlaneError);
  expect(error).toMatchObject({ status: 0, code: "timeout", timeoutMs: 300, attempts: 1 });
  expect(Date.now() - started).toBeLessThan(5_000);

  // With retries (and a timeout a loaded machine's answer stays within), the hung attempt is retried.
  const retrying = await setup({ timeout: 2_000 });
  proxied.current.faults.push({ kind: "hang", when: "before", match: (r) => r.method === "GET" });
  expect((await retrying.cp.tenants.get(retrying.tenantId)).id).toBe(retrying.tenantId);
  expect(proxied.current.passed.map((p) => p.status)).toEqual([null, 200]);
});

test("a call's own timeout overrides the client's", async () => {
  const { cp, tenantId } = await setup({ retry: false }); // the default: 60 s
  proxied.current.faults.push({ kind: "hang", when: "before", match: (r) => r.method === "GET" });
  const error = await cp.tenants.get(tenantId, { timeout: 200 }).catch((e: unknown) => e);
  expect(error).toMatchObject({ name: "ControlPlaneTimeoutError", code: "timeout", timeoutMs: 200 });
  proxied.current.faults.push({ kind: "hang", when: "before", match: writes });
  expect(await cp.webhooks.create(tenantId, hook, { timeout: 200 }).catch((e: unknown) => e)).toMatchObject({ code: "timeout" });
});

test("a create that times out while the server still runs it: the retry is told 409 idempotency_key_in_use, waits, and gets the one webhook", async () => {
  const { cp, direct, tenantId } = await setup({ timeout: 1_500, retry: { baseDelayMs: 10, maxRetries: 6 } });
  // Hold the tenant's row: the webhook's insert (its foreign key) waits, after the key was claimed.
  const prisma = await db();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const holding = new Promise<void>((resolve) => (locked = resolve));
  const transaction = prisma.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT id FROM tenants WHERE id = ${tenantId}::uuid FOR UPDATE`;
      locked();
      await released;
    },
    { timeout: 60_000 },
  );
  await holding;
  const creating = cp.webhooks.create(tenantId, hook);
  try {
    await until(
      () => proxied.current.passed.filter((p) => p.method === "POST").map((p) => p.status),
      (statuses) => statuses.includes(409),
    );
  } finally {
    release();
    await transaction;
  }
  const created = await creating;

  const attempts = await until(
    () => proxied.current.passed.filter((p) => p.method === "POST"),
    (all) => all[0]!.status === 201,
  );
  expect(new Set(attempts.map((a) => a.idempotencyKey)).size).toBe(1);
  expect(attempts[0]).toMatchObject({ status: 201, replayed: false }); // it ran on after the client gave up
  expect(attempts[1]).toMatchObject({ status: 409 });
  expect(attempts.at(-1)).toMatchObject({ status: 201, replayed: true });
  expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(950); // the 409's Retry-After (1 s), not the 10 ms backoff
  expect((await direct.webhooks.list(tenantId).toArray()).map((w) => w.id)).toEqual([created.id]);
});
