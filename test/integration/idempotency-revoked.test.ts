/**
 * A replay under an Idempotency-Key is an answer to an authenticated caller: a token revoked or
 * expired after it made the request gets a 401, never the stored response (which may carry a
 * secret shown once: the child token's value), and a request that fails authentication never
 * claims a key. Issue 21, finding 4.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, createUser, db } from "../support/fixtures.ts";
import { hashToken } from "../../server/auth/tokens.ts";

const api = apiServer();
let userId: string;

beforeAll(async () => {
  userId = (await createUser({ platformRole: "operator" })).id;
});

/** T creates a child token under key K: the stored answer holds the child's value. */
async function childTokenUnderKey(t: string, key: string) {
  const created = await client(api.url, t).post("/api/v1/tokens", { name: "Child" }, { "idempotency-key": key });
  expect(created.status).toBe(201);
  const value = created.json.token as string;
  expect(value).toMatch(/^cp_/);
  return value;
}

const idOf = async (t: string) => (await db()).apiToken.findFirstOrThrow({ where: { tokenHash: hashToken(t) } });
const claims = async (key: string) => (await db()).idempotencyKey.count({ where: { key } });

describe("a token that no longer authenticates gets no replay", () => {
  test("revoked: the replay with the same key is 401 (invalid_token) without the child's value", async () => {
    const t = await createToken(userId);
    const key = randomUUID();
    const child = await childTokenUnderKey(t, key);
    expect((await client(api.url, t).delete(`/api/v1/tokens/${(await idOf(t)).id}`)).status).toBe(204);

    const replay = await client(api.url, t).post("/api/v1/tokens", { name: "Child" }, { "idempotency-key": key });
    expect(replay.status).toBe(401);
    expect(replay.json.code).toBe("unauthenticated");
    expect(replay.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(replay.headers.get("idempotent-replayed")).toBeNull();
    expect(replay.text).not.toContain(child);
    // The child itself is still live: only its value was at stake.
    expect((await client(api.url, child).get("/api/v1/me")).status).toBe(200);
  });

  test("expired: the replay with the same key is 401 (invalid_token) without the child's value", async () => {
    const t = await createToken(userId, { expiresAt: new Date(Date.now() + 3600_000) });
    const key = randomUUID();
    const child = await childTokenUnderKey(t, key);
    await (await db()).apiToken.update({ where: { tokenHash: hashToken(t) }, data: { expiresAt: new Date(Date.now() - 1000) } });

    const replay = await client(api.url, t).post("/api/v1/tokens", { name: "Child" }, { "idempotency-key": key });
    expect(replay.status).toBe(401);
    expect(replay.json.code).toBe("unauthenticated");
    expect(replay.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(replay.text).not.toContain(child);
  });

  test("a request that fails authentication claims no key: the key is still free for a live token of the same value", async () => {
    const t = await createToken(userId, { revokedAt: new Date() });
    const key = randomUUID();
    const refused = await client(api.url, t).post("/api/v1/tenants", { name: "Never made" }, { "idempotency-key": key });
    expect(refused.status).toBe(401);
    expect(await claims(key)).toBe(0);
    expect(await (await db()).tenant.count({ where: { name: "Never made" } })).toBe(0);
  });

  test("a replay answers only the token that made the request: another live token of the same user gets its own result", async () => {
    const t = await createToken(userId);
    const other = await createToken(userId);
    const key = randomUUID();
    const child = await childTokenUnderKey(t, key);
    const own = await client(api.url, other).post("/api/v1/tokens", { name: "Child" }, { "idempotency-key": key });
    expect(own.status).toBe(201);
    expect(own.headers.get("idempotent-replayed")).toBeNull();
    expect(own.json.token).not.toBe(child);
  });
});
