import { beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { apiServer } from "../support/api-server.ts";
import { client, db, operator } from "../support/fixtures.ts";
import { database } from "../../server/db/client.ts";
import { purgeExpired, seal, unseal } from "../../server/contract/idempotency-keys.ts";

const api = apiServer();
let ops: ReturnType<typeof client>;
let token: string;

beforeAll(async () => {
  token = (await operator()).token;
  ops = client(api.url, token);
});

const tenantsNamed = async (name: string) => (await db()).tenant.count({ where: { name } });

describe("Idempotency-Key", () => {
  test("a repeat replays the identical status, body and Location, marked Idempotent-Replayed", async () => {
    const key = randomUUID();
    const first = await ops.post("/api/v1/tenants", { name: "Replay Co" }, { "idempotency-key": key });
    const again = await ops.post("/api/v1/tenants", { name: "Replay Co" }, { "idempotency-key": key });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("location")).toBe(first.headers.get("location"));
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(await tenantsNamed("Replay Co")).toBe(1);
  });

  test("the same JSON with other spacing or key order is the same request", async () => {
    const key = randomUUID();
    await ops.post("/api/v1/tenants", '{"name":"Spacing Co"}', { "idempotency-key": key });
    const again = await ops.post("/api/v1/tenants", '{ "name" : "Spacing Co" }', { "idempotency-key": key });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });

  test("the same key with another body is 422 idempotency_key_mismatch", async () => {
    const key = randomUUID();
    await ops.post("/api/v1/tenants", { name: "First body" }, { "idempotency-key": key });
    const other = await ops.post("/api/v1/tenants", { name: "Second body" }, { "idempotency-key": key });
    expect(other.status).toBe(422);
    expect(other.json.code).toBe("idempotency_key_mismatch");
    expect(await tenantsNamed("Second body")).toBe(0);
  });

  test("keys belong to the token: another token's key of the same value is independent", async () => {
    const key = randomUUID();
    const other = client(api.url, (await operator()).token);
    expect((await ops.post("/api/v1/tenants", { name: "Scoped A" }, { "idempotency-key": key })).status).toBe(201);
    const res = await other.post("/api/v1/tenants", { name: "Scoped B" }, { "idempotency-key": key });
    expect(res.status).toBe(201);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
  });

  test("a stored reply that carries a secret is kept encrypted for the caller: the replay shows it, the database does not", async () => {
    const key = randomUUID();
    const first = await ops.post("/api/v1/tokens", { name: "Shown once" }, { "idempotency-key": key });
    expect(first.status).toBe(201);
    const value = first.json.token as string;
    expect(value).toMatch(/^cp_/);
    const again = await ops.post("/api/v1/tokens", { name: "Shown once" }, { "idempotency-key": key });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    const { sql } = await database();
    const [row] = await sql.query<{ response_body: string }>(`SELECT response_body FROM idempotency_keys WHERE key = $1`, [key]);
    expect(row!.response_body).toMatch(/^v1\./);
    expect(row!.response_body).not.toContain(value);
    expect(row!.response_body).not.toContain("Shown once");
    // Only the same credential opens it, and a changed byte is refused.
    expect(unseal(token, row!.response_body)).toBe(first.text);
    expect(() => unseal(`${token}x`, row!.response_body)).toThrow();
    const sealed = seal(token, "{}");
    expect(() => unseal(token, sealed.slice(0, -2) + (sealed.endsWith("A") ? "BA" : "AA"))).toThrow();
  });

  test("20 concurrent requests with one key create exactly one tenant", async () => {
    const key = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => ops.post("/api/v1/tenants", { name: "Concurrent Co" }, { "idempotency-key": key })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    for (const r of results.filter((r) => r.status === 409)) expect(r.json.code).toBe("idempotency_key_in_use");
    const ids = new Set(results.filter((r) => r.status === 201).map((r) => r.json.id));
    expect(ids.size).toBe(1);
    expect(await tenantsNamed("Concurrent Co")).toBe(1);
    const created = [...ids][0] as string;
    expect(await (await db()).auditEvent.count({ where: { tenantId: created } })).toBe(1);
  });

  test("client errors are stored and replayed; 401s are not", async () => {
    const key = randomUUID();
    const bad = await ops.post("/api/v1/tenants", { name: "" }, { "idempotency-key": key });
    const again = await ops.post("/api/v1/tenants", { name: "" }, { "idempotency-key": key });
    expect(bad.status).toBe(400);
    expect(again.status).toBe(400);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("content-type")).toBe("application/problem+json");

    const anonymousKey = randomUUID();
    const unauthenticated = client(api.url, "cp_not-a-real-token-not-a-real-token-xx");
    expect((await unauthenticated.post("/api/v1/tenants", { name: "Nope" }, { "idempotency-key": anonymousKey })).status).toBe(401);
    const rows = await (await db()).idempotencyKey.count({ where: { key: anonymousKey } });
    expect(rows).toBe(0);
  });

  test("a key expires after 24 hours: then it runs again, and housekeeping purges expired keys", async () => {
    const key = randomUUID();
    await ops.post("/api/v1/tenants", { name: "Expiring Co" }, { "idempotency-key": key });
    const row = await (await db()).idempotencyKey.findFirstOrThrow({ where: { key } });
    const ttl = row.expiresAt.getTime() - row.createdAt.getTime();
    expect(ttl).toBeGreaterThan(24 * 3600_000 - 5_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600_000 + 5_000);

    await (
      await db()
    ).$executeRaw`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = ${key}`;
    const later = await ops.post("/api/v1/tenants", { name: "Expiring Co" }, { "idempotency-key": key });
    expect(later.status).toBe(201);
    expect(later.headers.get("idempotent-replayed")).toBeNull();
    expect(await tenantsNamed("Expiring Co")).toBe(2);

    await (
      await db()
    ).$executeRaw`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = ${key}`;
    expect(await purgeExpired((await database()).sql)).toBeGreaterThanOrEqual(1);
    expect(await (await db()).idempotencyKey.count({ where: { key } })).toBe(0);
  });

  test("a claim left by a request that died is taken over after its lease", async () => {
    const key = randomUUID();
    const first = await ops.post("/api/v1/tenants", { name: "Lease Co" }, { "idempotency-key": key });
    // Pretend the first request is still running (state in_flight) …
    await (
      await db()
    ).$executeRaw`UPDATE idempotency_keys SET state = 'in_flight' WHERE key = ${key}`;
    const busy = await ops.post("/api/v1/tenants", { name: "Lease Co" }, { "idempotency-key": key });
    expect(busy.status).toBe(409);
    expect(busy.json.code).toBe("idempotency_key_in_use");
    // … then that its process died: the lease runs out and the request may run.
    await (
      await db()
    ).$executeRaw`UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE key = ${key}`;
    const retried = await ops.post("/api/v1/tenants", { name: "Lease Co" }, { "idempotency-key": key });
    expect(retried.status).toBe(201);
    expect(retried.json.id).not.toBe(first.json.id);
  });

  test("a key longer than 255 characters is 400", async () => {
    const res = await ops.post("/api/v1/tenants", { name: "Long key" }, { "idempotency-key": "k".repeat(256) });
    expect(res.status).toBe(400);
    expect(res.json.errors[0].path).toBe("Idempotency-Key");
  });
});
