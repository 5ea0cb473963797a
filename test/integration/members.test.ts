import { describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, createUser, db, operator, tenantWithMembers } from "../support/fixtures.ts";
import { checkCredentials } from "../../server/account/users.ts";

const api = apiServer();

const events = async (tenantId: string, type: string) => (await db()).auditEvent.findMany({ where: { tenantId, eventType: type } });

describe("members", () => {
  // Operators: tenant admins invite instead (members-consent.test.ts), so no answer tells them whether an email has an account.
  test("an operator adds a new user as viewer: 201, Location, user.created, and the user can sign in", async () => {
    const { tenant } = await tenantWithMembers();
    const op = await operator();
    const res = await client(api.url, op.token).post(`/api/v1/tenants/${tenant.id}/members`, {
      email: "New.Person@Example.com",
      role: "viewer",
      name: "New Person",
      password: "a-good-password",
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      tenant_id: tenant.id,
      email: "new.person@example.com",
      name: "New Person",
      role: "viewer",
      has_password: true,
    });
    expect(res.headers.get("location")).toBe(`${api.url}/api/v1/tenants/${tenant.id}/members/${res.json.user_id}`);
    const created = await events(tenant.id, "user.created");
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      targetId: res.json.user_id,
      actorId: op.user.id,
      details: { email: "new.person@example.com", role: "viewer", new_user: true },
    });
    expect(await checkCredentials(await db(), "new.person@example.com", "a-good-password")).not.toBeNull();
  });

  test("a user added without a password exists but cannot sign in until an operator sets one", async () => {
    const { tenant } = await tenantWithMembers();
    const res = await client(api.url, (await operator()).token).post(`/api/v1/tenants/${tenant.id}/members`, {
      email: "nopass@example.com",
      role: "viewer",
    });
    expect(res.status).toBe(201);
    expect(res.json.has_password).toBe(false);
  });

  test("an admin adding an existing user invites them (202): not a member, password kept; a member or a pending invitation is 409", async () => {
    const { tenant, admin, viewer } = await tenantWithMembers();
    const existing = await createUser({ password: "their-own-password" });
    const api1 = client(api.url, admin.token);
    const res = await api1.post(`/api/v1/tenants/${tenant.id}/members`, { email: existing.email, role: "admin" });
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ email: existing.email, role: "admin", status: "pending" });
    expect(await (await db()).membership.count({ where: { tenantId: tenant.id, userId: existing.id } })).toBe(0);
    expect(await checkCredentials(await db(), existing.email, "their-own-password")).not.toBeNull();
    const again = await api1.post(`/api/v1/tenants/${tenant.id}/members`, { email: existing.email, role: "viewer" });
    expect(again.status).toBe(409);
    expect(again.json.code).toBe("conflict");
    const member = await api1.post(`/api/v1/tenants/${tenant.id}/members`, { email: viewer.user.email, role: "admin" });
    expect(member.status).toBe(409);
    expect(member.json.detail).toMatch(/already a member/);
  });

  test.each([
    [{ email: "not-an-email", role: "viewer" }, "email"],
    [{ email: "a@b.co", role: "owner" }, "role"],
    [{ email: "a@b.co" }, "role"],
    [{ email: "a@b.co", role: "viewer", password: "short" }, "password"],
    [{ email: "a@b.co", role: "viewer", name: "" }, "name"],
  ])("400 naming the field for %o", async (body, field) => {
    const { tenant, admin } = await tenantWithMembers();
    const res = await client(api.url, admin.token).post(`/api/v1/tenants/${tenant.id}/members`, body);
    expect(res.status).toBe(400);
    expect(res.json.errors.map((e: { path: string }) => e.path)).toContain(field);
  });

  test("lists members with pagination", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const api1 = client(api.url, admin.token);
    const op = client(api.url, (await operator()).token);
    for (let i = 0; i < 3; i++)
      await op.post(`/api/v1/tenants/${tenant.id}/members`, { email: `m${i}-${tenant.id}@example.com`, role: "viewer" });
    const page1 = await api1.get(`/api/v1/tenants/${tenant.id}/members?page_size=2`);
    expect(page1.status).toBe(200);
    expect(page1.json.count).toBe(5);
    expect(page1.json.results).toHaveLength(2);
    const page2 = await api1.get(page1.json.next);
    const page3 = await api1.get(page2.json.next);
    const all = [...page1.json.results, ...page2.json.results, ...page3.json.results].map((m: { user_id: string }) => m.user_id);
    expect(new Set(all).size).toBe(5);
  });

  test("changing a role emits user.updated with the change; an unchanged PATCH emits nothing", async () => {
    const { tenant, admin, viewer } = await tenantWithMembers();
    const api1 = client(api.url, admin.token);
    const res = await api1.patch(`/api/v1/tenants/${tenant.id}/members/${viewer.user.id}`, { role: "admin" });
    expect(res.status).toBe(200);
    expect(res.json.role).toBe("admin");
    const updated = await events(tenant.id, "user.updated");
    expect(updated).toHaveLength(1);
    expect(updated[0]!.details).toMatchObject({ changes: { role: { from: "viewer", to: "admin" } } });
    await api1.patch(`/api/v1/tenants/${tenant.id}/members/${viewer.user.id}`, { role: "admin" });
    expect(await events(tenant.id, "user.updated")).toHaveLength(1);
  });

  test("the last admin can be neither demoted nor removed (409); with a second admin both work", async () => {
    const { tenant, admin, viewer } = await tenantWithMembers();
    const api1 = client(api.url, admin.token);
    const demote = await api1.patch(`/api/v1/tenants/${tenant.id}/members/${admin.user.id}`, { role: "viewer" });
    expect(demote.status).toBe(409);
    expect(demote.json.detail).toMatch(/last admin/);
    expect((await api1.delete(`/api/v1/tenants/${tenant.id}/members/${admin.user.id}`)).status).toBe(409);

    expect((await api1.patch(`/api/v1/tenants/${tenant.id}/members/${viewer.user.id}`, { role: "admin" })).status).toBe(200);
    const removed = await api1.delete(`/api/v1/tenants/${tenant.id}/members/${admin.user.id}`);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe("");
    expect(await events(tenant.id, "user.removed")).toHaveLength(1);
  });

  test("two admins demoting each other at once leave one admin", async () => {
    const { tenant, admin, viewer } = await tenantWithMembers();
    await client(api.url, admin.token).patch(`/api/v1/tenants/${tenant.id}/members/${viewer.user.id}`, { role: "admin" });
    const results = await Promise.all([
      client(api.url, admin.token).patch(`/api/v1/tenants/${tenant.id}/members/${viewer.user.id}`, { role: "viewer" }),
      client(api.url, viewer.token).patch(`/api/v1/tenants/${tenant.id}/members/${admin.user.id}`, { role: "viewer" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await (await db()).membership.count({ where: { tenantId: tenant.id, role: "admin" } })).toBe(1);
  });

  test("viewers and support read members but cannot change them (403); other tenants' admins get 404", async () => {
    const { tenant, viewer } = await tenantWithMembers();
    const other = await tenantWithMembers();
    const support = await createUser({ platformRole: "support" });
    const supportToken = await createToken(support.id);
    for (const token of [viewer.token, supportToken]) {
      const reader = client(api.url, token);
      expect((await reader.get(`/api/v1/tenants/${tenant.id}/members`)).status).toBe(200);
      const write = await reader.post(`/api/v1/tenants/${tenant.id}/members`, { email: "x@example.com", role: "viewer" });
      expect(write.status).toBe(403);
      expect(write.json.code).toBe("forbidden");
    }
    const outsider = client(api.url, other.admin.token);
    const res = await outsider.get(`/api/v1/tenants/${tenant.id}/members`);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain(viewer.user.email);
  });

  test("operators act as admin in every tenant", async () => {
    const { tenant } = await tenantWithMembers();
    const { token } = await operator();
    const res = await client(api.url, token).post(`/api/v1/tenants/${tenant.id}/members`, {
      email: "by-operator@example.com",
      role: "viewer",
    });
    expect(res.status).toBe(201);
  });
});
