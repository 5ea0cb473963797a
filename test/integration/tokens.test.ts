import { describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, createUser, db, operator, tenantWithMembers } from "../support/fixtures.ts";
import { hashToken } from "../../server/auth/tokens.ts";

const api = apiServer();

describe("API tokens", () => {
  test("a token is shown once, stored only as its SHA-256, and works at once", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const res = await client(api.url, admin.token).post("/api/v1/tokens", { name: "deploy bot", tenant_id: tenant.id });
    expect(res.status).toBe(201);
    expect(res.json.token).toMatch(/^cp_[A-Za-z0-9_-]{43}$/);
    expect(res.json).toMatchObject({
      name: "deploy bot",
      user_id: admin.user.id,
      tenant_id: tenant.id,
      read_only: false,
      expires_at: null,
    });
    expect(res.headers.get("location")).toBe(`${api.url}/api/v1/tokens/${res.json.id}`);

    const row = await (await db()).apiToken.findUniqueOrThrow({ where: { id: res.json.id } });
    expect(row.tokenHash).toBe(hashToken(res.json.token));
    const dump = JSON.stringify(await (await db()).$queryRawUnsafe(`SELECT * FROM api_tokens`));
    expect(dump).not.toContain(res.json.token);

    const list = await client(api.url, admin.token).get("/api/v1/tokens");
    expect(list.text).not.toContain(res.json.token);
    expect(list.json.results.map((t: { id: string }) => t.id)).toContain(res.json.id);

    const me = await client(api.url, res.json.token).get("/api/v1/me");
    expect(me.status).toBe(200);
    expect(me.json.token).toMatchObject({ id: res.json.id, tenant_id: tenant.id, read_only: false });

    const events = await (await db()).auditEvent.findMany({ where: { eventType: "api_token.created", targetId: res.json.id } });
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events[0]!.details)).not.toContain(res.json.token);
  });

  test("a token is listed with its last four characters (captured at creation); an older token without them lists null", async () => {
    const { admin } = await tenantWithMembers();
    const owner = client(api.url, admin.token);
    const created = await owner.post("/api/v1/tokens", { name: "ci runner" });
    expect(created.status).toBe(201);
    expect(created.json.last_four).toBe(created.json.token.slice(-4));
    expect((await (await db()).apiToken.findUniqueOrThrow({ where: { id: created.json.id } })).lastFour).toBe(created.json.token.slice(-4));

    const listed = (await owner.get("/api/v1/tokens?page_size=100")).json.results as Array<{ id: string; last_four: string | null }>;
    expect(listed.find((t) => t.id === created.json.id)!.last_four).toBe(created.json.token.slice(-4));
    // The token the fixtures made directly (as a token minted before this field existed) has none.
    const older = listed.filter((t) => t.id !== created.json.id);
    expect(older.length).toBeGreaterThan(0);
    for (const token of older) expect(token.last_four).toBeNull();
  });

  test("revoked and expired tokens answer 401 invalid_token", async () => {
    const { admin } = await tenantWithMembers();
    const owner = client(api.url, admin.token);
    const created = await owner.post("/api/v1/tokens", { name: "short-lived" });
    expect((await client(api.url, created.json.token).get("/api/v1/me")).status).toBe(200);
    const revoked = await owner.delete(`/api/v1/tokens/${created.json.id}`);
    expect(revoked.status).toBe(204);
    const after = await client(api.url, created.json.token).get("/api/v1/me");
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
    expect((await owner.delete(`/api/v1/tokens/${created.json.id}`)).status).toBe(404);
    expect((await owner.get("/api/v1/tokens")).json.results.map((t: { id: string }) => t.id)).not.toContain(created.json.id);
    expect(await (await db()).auditEvent.count({ where: { eventType: "api_token.revoked", targetId: created.json.id } })).toBeGreaterThan(
      0,
    );

    const expiring = await owner.post("/api/v1/tokens", { name: "expiring", expires_at: new Date(Date.now() + 60_000).toISOString() });
    await (await db()).apiToken.update({ where: { id: expiring.json.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await client(api.url, expiring.json.token).get("/api/v1/me")).status).toBe(401);
  });

  test.each([
    [{}, "name"],
    [{ name: "" }, "name"],
    [{ name: "x", expires_at: "tomorrow" }, "expires_at"],
    [{ name: "x", expires_at: "2001-01-01T00:00:00Z" }, "expires_at"],
    [{ name: "x", read_only: "yes" }, "read_only"],
    [{ name: "x", tenant_id: "nope" }, "tenant_id"],
  ])("400 naming the field for %o", async (body, field) => {
    const { admin } = await tenantWithMembers();
    const res = await client(api.url, admin.token).post("/api/v1/tokens", body);
    expect(res.status).toBe(400);
    expect(res.json.errors.map((e: { path: string }) => e.path)).toContain(field);
  });

  test("a token cannot be scoped to a tenant its owner cannot act in", async () => {
    const { admin } = await tenantWithMembers();
    const other = await tenantWithMembers();
    const res = await client(api.url, admin.token).post("/api/v1/tokens", { name: "x", tenant_id: other.tenant.id });
    expect(res.status).toBe(400);
    expect(res.json.errors[0].path).toBe("tenant_id");
  });

  test("a tenant-scoped token can only mint tokens for its own tenant", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const scoped = await createToken(admin.user.id, { tenantId: tenant.id });
    const broader = await client(api.url, scoped).post("/api/v1/tokens", { name: "escalate" });
    expect(broader.status).toBe(403);
    const same = await client(api.url, scoped).post("/api/v1/tokens", { name: "same", tenant_id: tenant.id });
    expect(same.status).toBe(201);
  });

  test("a tenant-scoped token lists only its tenant's tokens, not its owner's tokens elsewhere", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const other = await tenantWithMembers();
    await (await db()).membership.create({ data: { tenantId: other.tenant.id, userId: admin.user.id, role: "admin" } });
    const owner = client(api.url, admin.token);
    const here = await owner.post("/api/v1/tokens", { name: "here", tenant_id: tenant.id });
    const elsewhere = await owner.post("/api/v1/tokens", { name: "elsewhere", tenant_id: other.tenant.id });
    expect([here.status, elsewhere.status]).toEqual([201, 201]);

    const listed = await client(api.url, here.json.token).get("/api/v1/tokens?page_size=100");
    expect(listed.status).toBe(200);
    expect(listed.json.results.map((t: { id: string }) => t.id)).toEqual([here.json.id]);
    expect(listed.json.count).toBe(1);
    // The unscoped token still sees all of them.
    const all = (await owner.get("/api/v1/tokens?page_size=100")).json.results.map((t: { id: string }) => t.id);
    expect(all).toEqual(expect.arrayContaining([here.json.id, elsewhere.json.id]));
  });

  test("operators mint and list tokens for another user; others may not (403)", async () => {
    const { user: ops, token } = await operator();
    const target = await createUser();
    const minted = await client(api.url, token).post("/api/v1/tokens", { name: "for someone", user_id: target.id });
    expect(minted.status).toBe(201);
    expect(minted.json.user_id).toBe(target.id);
    const listed = await client(api.url, token).get(`/api/v1/tokens?user_id=${target.id}`);
    expect(listed.json.results.map((t: { id: string }) => t.id)).toEqual([minted.json.id]);
    expect(ops.id).not.toBe(target.id);

    const { admin } = await tenantWithMembers();
    const denied = await client(api.url, admin.token).post("/api/v1/tokens", { name: "x", user_id: target.id });
    expect(denied.status).toBe(403);
    expect((await client(api.url, admin.token).get(`/api/v1/tokens?user_id=${target.id}`)).status).toBe(403);
  });

  test("someone else's token cannot be revoked: 404", async () => {
    const a = await tenantWithMembers();
    const b = await tenantWithMembers();
    const created = await client(api.url, a.admin.token).post("/api/v1/tokens", { name: "mine" });
    expect((await client(api.url, b.admin.token).delete(`/api/v1/tokens/${created.json.id}`)).status).toBe(404);
    expect((await client(api.url, created.json.token).get("/api/v1/me")).status).toBe(200);
  });

  test("last_used_at is written at most once a minute", async () => {
    const { admin } = await tenantWithMembers();
    const row = () => db().then((p) => p.apiToken.findFirstOrThrow({ where: { userId: admin.user.id } }));
    await client(api.url, admin.token).get("/api/v1/me");
    const first = (await row()).lastUsedAt!;
    await client(api.url, admin.token).get("/api/v1/me");
    expect((await row()).lastUsedAt).toEqual(first);
    await (await db()).apiToken.updateMany({ where: { userId: admin.user.id }, data: { lastUsedAt: new Date(Date.now() - 61_000) } });
    await client(api.url, admin.token).get("/api/v1/me");
    expect((await row()).lastUsedAt!.getTime()).toBeGreaterThan(Date.now() - 5_000);
  });
});

describe("GET /api/v1/me", () => {
  test("the caller, its roles and memberships, and the token's scopes", async () => {
    const { tenant, viewer } = await tenantWithMembers("Me Co");
    const res = await client(api.url, viewer.token).get("/api/v1/me");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      user: { id: viewer.user.id, email: viewer.user.email, platform_role: null },
      memberships: [{ tenant_id: tenant.id, tenant_name: "Me Co", role: "viewer" }],
      token: { read_only: false, tenant_id: null },
      step_up_expires_at: null,
    });
  });
});
