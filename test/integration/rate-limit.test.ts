/**
 * API rate limits, across real app instances (child processes) on one database: the quota is
 * shared by instances and survives a restart, 429 + Retry-After + RateLimit fields when exceeded,
 * unauthenticated callers are counted per address, 0 turns a limit off, and a 429 is never stored
 * under an Idempotency-Key.
 */
import { afterEach, beforeEach, expect, test } from "vitest";
import { client, operator } from "../support/fixtures.ts";
import { startInstance, type Instance } from "../support/instances.ts";
import { database } from "../../server/db/client.ts";
import { runHousekeeping } from "../../server/app/cron.ts";
import { parallelStreams, servedUntilRefused } from "../support/parallel-streams.ts";

const running: Instance[] = [];
async function instance(env: Record<string, string>): Promise<Instance> {
  const started = await startInstance(env);
  running.push(started);
  return started;
}

beforeEach(async () => {
  await (await database()).sql.query(`DELETE FROM rate_limit_windows`);
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((i) => i.stop()));
});

const limits = (perToken: number, perIp: number, windowSeconds = 3600) => ({
  RATE_LIMIT_PER_TOKEN: String(perToken),
  RATE_LIMIT_PER_IP: String(perIp),
  RATE_LIMIT_WINDOW_SECONDS: String(windowSeconds),
});

function rateLimitOf(headers: Headers) {
  const match = /^"([a-z-]+)";r=(\d+);t=(\d+)$/.exec(headers.get("ratelimit") ?? "");
  return match ? { policy: match[1], remaining: Number(match[2]), reset: Number(match[3]) } : null;
}

test(
  "two instances count one per-token quota; a restarted instance still refuses; 429 problem with Retry-After",
  { timeout: 60_000 },
  async () => {
    const env = limits(6, 1000);
    const [a, b] = await Promise.all([instance(env), instance(env)]);
    const { token } = await operator();
    const remaining: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await client(i % 2 ? b.url : a.url, token).get("/api/v1/tenants");
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-policy")).toBe('"per-token";q=6;w=3600');
      const usage = rateLimitOf(response.headers)!;
      expect(usage.policy).toBe("per-token");
      expect(usage.reset).toBeGreaterThan(3500);
      remaining.push(usage.remaining);
    }
    expect(remaining).toEqual([5, 4, 3, 2, 1, 0]);

    const refused = await client(a.url, token).get("/api/v1/tenants");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(refused.json).toMatchObject({ status: 429, code: "rate_limited" });
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(rateLimitOf(refused.headers)).toEqual({ policy: "per-token", remaining: 0, reset: retryAfter });

    await a.stop();
    const restarted = await instance(env);
    expect((await client(restarted.url, token).get("/api/v1/tenants")).status).toBe(429);
    expect((await client(b.url, token).get("/api/v1/tenants")).status).toBe(429);
    // Another token has its own quota.
    const other = await operator();
    expect((await client(restarted.url, other.token).get("/api/v1/tenants")).status).toBe(200);
  },
);

test(
  "a large quota is claimed in leases: two instances and a restart together still serve at most the quota",
  { timeout: 60_000 },
  async () => {
    // 200 per window: each instance claims 4 requests per upsert.
    const env = limits(200, 1000);
    const [a, b] = await Promise.all([instance(env), instance(env)]);
    const { token } = await operator();
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++) statuses.push((await client(i % 2 ? b.url : a.url, token).get("/api/v1/tenants")).status);
    const [row] = await (await database()).sql.query<{ hits: number }>(`SELECT hits FROM rate_limit_windows WHERE key LIKE 'token:%'`);
    // Claimed in leases of 4: at least what was served, at most one unused lease per instance more.
    expect(row!.hits).toBeGreaterThanOrEqual(120);
    expect(row!.hits).toBeLessThanOrEqual(128);
    // A restarted instance does not get its predecessor's unused claim back: it stays spent.
    await a.stop();
    const restarted = await instance(env);
    for (let i = 0; i < 120; i++) statuses.push((await client(i % 2 ? b.url : restarted.url, token).get("/api/v1/tenants")).status);
    const served = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(served).toBeLessThanOrEqual(200);
    expect(served).toBeGreaterThanOrEqual(200 - 3 * 3);
    const refused = await client(b.url, token).get("/api/v1/tenants");
    expect(refused.status).toBe(429);
    expect(rateLimitOf(refused.headers)).toMatchObject({ policy: "per-token", remaining: 0 });
  },
);

test(
  "unauthenticated callers are counted per client address, invalid tokens included; the OpenAPI document too",
  { timeout: 60_000 },
  async () => {
    const app = await instance(limits(1000, 4));
    const anonymous = client(app.url);
    const first = await anonymous.get("/api/v1/tenants");
    expect(first.status).toBe(401);
    expect(first.headers.get("ratelimit-policy")).toBe('"per-ip";q=4;w=3600');
    expect(rateLimitOf(first.headers)).toMatchObject({ policy: "per-ip", remaining: 3 });
    expect((await client(app.url, "cp_not-a-real-token").get("/api/v1/tenants")).status).toBe(401);
    const doc = await anonymous.get("/api/v1/openapi.json");
    expect(doc.status).toBe(200);
    expect(rateLimitOf(doc.headers)).toMatchObject({ policy: "per-ip", remaining: 1 });
    expect((await anonymous.get("/api/v1/me")).status).toBe(401);
    const refused = await anonymous.get("/api/v1/tenants");
    expect(refused.status).toBe(429);
    expect(refused.json.code).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // A valid token is counted against itself, not the address.
    const { token } = await operator();
    const authed = await client(app.url, token).get("/api/v1/tenants");
    expect(authed.status).toBe(200);
    expect(rateLimitOf(authed.headers)).toMatchObject({ policy: "per-token", remaining: 999 });
  },
);

test(
  "parallel requests count once each, per token and per address: 16 streams of 4 use 64 of the quota, then the rest is served",
  { timeout: 60_000 },
  async () => {
    // Claimed 4 at a time. Parallel requests that found no lease each claimed one, and each
    // claim replaced the last one's lease: most of what was claimed was never served.
    const quota = 200;
    const app = await instance(limits(quota, quota));
    const { token } = await operator();
    const callers = [
      { policy: "per-token", key: "token:%", api: client(app.url, token), expected: 200 },
      { policy: "per-ip", key: "ip:%", api: client(app.url), expected: 401 },
    ];
    for (const { policy, key, api, expected } of callers) {
      let last: Headers | undefined;
      const call = async () => {
        const response = await api.get("/api/v1/tenants");
        last = response.headers;
        return response.status;
      };
      const statuses = (await parallelStreams(16, 4, call)).flat();
      expect(statuses.filter((status) => status !== expected)).toEqual([]);
      const [row] = await (await database()).sql.query<{ hits: number }>(`SELECT hits FROM rate_limit_windows WHERE key LIKE $1`, [key]);
      expect(row!.hits).toBeGreaterThanOrEqual(64);
      expect(row!.hits).toBeLessThan(64 + 4);
      await call();
      expect(rateLimitOf(last!)).toMatchObject({ policy, remaining: quota - 65 });
      expect(65 + (await servedUntilRefused(16, call))).toBe(quota);
    }
  },
);

test("0 turns a limit off: no counting and no RateLimit fields for that kind of caller", { timeout: 60_000 }, async () => {
  const app = await instance(limits(0, 2));
  const { token } = await operator();
  for (let i = 0; i < 5; i++) {
    const response = await client(app.url, token).get("/api/v1/tenants");
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit")).toBeNull();
    expect(response.headers.get("ratelimit-policy")).toBeNull();
  }
  const rows = await (await database()).sql.query<{ key: string }>(`SELECT key FROM rate_limit_windows`);
  expect(rows.filter((r) => r.key.startsWith("token:"))).toEqual([]);
  // The per-address limit, still on, applies.
  const anonymous = client(app.url);
  expect((await anonymous.get("/api/v1/tenants")).status).toBe(401);
  expect((await anonymous.get("/api/v1/tenants")).status).toBe(401);
  expect((await anonymous.get("/api/v1/tenants")).status).toBe(429);
});

test(
  "a 429 is not stored under its Idempotency-Key: after the window the same key runs; ended windows are purged",
  { timeout: 60_000 },
  async () => {
    // A 5 s window: with 2 s, a loaded run once sent the second call into a new window (201).
    const app = await instance(limits(1, 1000, 5));
    const { token } = await operator();
    const api = client(app.url, token);
    expect((await api.post("/api/v1/tenants", { name: "first" }, { "idempotency-key": "k-1" })).status).toBe(201);
    const refused = await api.post("/api/v1/tenants", { name: "second" }, { "idempotency-key": "k-2" });
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(5);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 100));

    const db = await database();
    expect((await runHousekeeping(db)).rate_limit_windows_purged).toBe(1);
    expect(await db.sql.query(`SELECT key FROM rate_limit_windows`)).toEqual([]);

    const retried = await api.post("/api/v1/tenants", { name: "second" }, { "idempotency-key": "k-2" });
    expect(retried.status).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect(rateLimitOf(retried.headers)).toMatchObject({ remaining: 0 });
  },
);
