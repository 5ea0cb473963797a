/**
 * The directories API over real HTTP: a tenant admin creates a directory (its SCIM token shown
 * once, kept only as a hash), edits its role mappings, disables, rotates and deletes it behind a
 * step-up; viewers read; another tenant sees 404. Every change is one audit event, a no-op none.
 * The lifecycle seam is wrapped (not replaced) to see which users each change hands it.
 */
import { beforeEach, describe, expect, test, vi } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, db, tenantWithMembers } from "../support/fixtures.ts";
import { hashDirectoryToken } from "../../server/directories/token.ts";
import { reconcileDirectoryUsers } from "../../server/directories/lifecycle.ts";

vi.mock("../../server/directories/lifecycle.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../server/directories/lifecycle.ts")>();
  return { ...original, reconcileDirectoryUsers: vi.fn(original.reconcileDirectoryUsers) };
});
const reconcile = vi.mocked(reconcileDirectoryUsers);
beforeEach(() => reconcile.mockClear());

const api = apiServer();
const base = (tenantId: string) => `/api/v1/tenants/${tenantId}/directories`;
const events = async (tenantId: string, type: string) =>
  (await db()).auditEvent.findMany({ where: { tenantId, eventType: type }, orderBy: { sequence: "asc" } });
const directoryEvents = async (tenantId: string) =>
  (await db()).auditEvent.findMany({ where: { tenantId, eventType: { startsWith: "directory." } }, orderBy: { sequence: "asc" } });

/**
 * A tenant whose admin's token is stepped up (creating a directory and changing what it grants need
 * it), and `fresh`, another token of the same admin that is not.
 */
async function setup() {
  const members = await tenantWithMembers();
  const admin = client(api.url, members.admin.token);
  expect((await admin.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
  return {
    ...members,
    base: base(members.tenant.id),
    admin,
    fresh: client(api.url, await createToken(members.admin.user.id)),
    viewer: client(api.url, members.viewer.token),
    adminUser: members.admin.user,
  };
}

async function withDirectory(body: Record<string, unknown> = {}) {
  const ctx = await setup();
  const res = await ctx.admin.post(ctx.base, { name: "Okta production", provider: "okta", ...body });
  expect(res.status).toBe(201);
  return { ...ctx, directory: res.json as { id: string; token: string; token_hint: string }, one: `${ctx.base}/${res.json.id}` };
}

/** Directory users put straight into the table (the SCIM endpoint is tested on its own). */
async function addUsers(directoryId: string, tenantId: string, count: number) {
  const prisma = await db();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const userName = `person${i}-${Math.random().toString(36).slice(2)}@example.com`;
    const row = await prisma.directoryUser.create({
      data: {
        directoryId,
        tenantId,
        userName,
        primaryEmail: userName,
        resource: { userName, emails: [{ value: userName, primary: true }] },
      },
    });
    ids.push(row.id);
  }
  return ids;
}

describe("creating a directory", () => {
  test("201 with Location, the SCIM URL and the token once; only its hash is stored; directory.created", async () => {
    const { tenant, base, admin, adminUser } = await setup();
    const res = await admin.post(base, { name: "Okta production", provider: "okta" });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe(`${api.url}${base}/${res.json.id}`);
    expect(res.json).toMatchObject({
      tenant_id: tenant.id,
      name: "Okta production",
      provider: "okta",
      enabled: true,
      default_role: null,
      role_mappings: [],
      user_count: 0,
      group_count: 0,
      last_request_at: null,
    });
    expect(res.json.scim_base_url).toMatch(new RegExp(`^https?://[^/]+/api/scim/v2/${res.json.id}$`));
    expect(res.json.token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
    expect(res.json.token_hint).toBe(res.json.token.slice(-4));

    const row = await (await db()).directory.findUniqueOrThrow({ where: { id: res.json.id } });
    expect(row.tokenHash).toBe(hashDirectoryToken(res.json.token));
    expect(JSON.stringify(row)).not.toContain(res.json.token);
    const got = await admin.get(`${base}/${res.json.id}`);
    expect(got.status).toBe(200);
    expect(got.json).not.toHaveProperty("token");
    expect(got.json).toEqual(Object.fromEntries(Object.entries(res.json).filter(([key]) => key !== "token")));
    expect((await admin.get(base)).text).not.toContain(res.json.token);

    const [created] = await events(tenant.id, "directory.created");
    expect(created).toMatchObject({ actorId: adminUser.id, targetType: "directory", targetId: res.json.id, targetName: "Okta production" });
    expect(created!.details).toMatchObject({ name: "Okta production", provider: "okta", token_hint: res.json.token_hint });
    expect(JSON.stringify(created!.details)).not.toContain(res.json.token);
  });

  test("provider defaults to generic; role mappings and default role are kept as given", async () => {
    const { base, admin } = await setup();
    const mappings = [
      { group: "Engineering", role: "admin" },
      { group: "00u1abcd", role: "viewer" },
    ];
    const res = await admin.post(base, { name: "Any IdP", default_role: "viewer", role_mappings: mappings });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ provider: "generic", default_role: "viewer", role_mappings: mappings });
  });

  test.each([
    [{}, "name"],
    [{ name: "   " }, "name"],
    [{ name: 42 }, "name"],
    [{ name: "x", provider: "azure" }, "provider"],
    [{ name: "x", default_role: "owner" }, "default_role"],
    [{ name: "x", role_mappings: "admins" }, "role_mappings"],
    [{ name: "x", role_mappings: [{ group: "Eng", role: "owner" }] }, "role_mappings.0.role"],
    [
      {
        name: "x",
        role_mappings: [
          { group: "Eng", role: "admin" },
          { group: "", role: "viewer" },
        ],
      },
      "role_mappings.1.group",
    ],
  ])("%j is a 400 naming %s", async (body, path) => {
    const { base, admin } = await setup();
    const res = await admin.post(base, body);
    expect(res.status).toBe(400);
    expect(res.json.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  test("a viewer may list and read directories but not create one (403)", async () => {
    const { base, viewer, directory, one } = await withDirectory();
    expect((await viewer.post(base, { name: "Mine" })).status).toBe(403);
    expect((await viewer.get(one)).json.id).toBe(directory.id);
    expect((await viewer.get(base)).json.results.map((d: { id: string }) => d.id)).toEqual([directory.id]);
  });

  test("the list is newest first and paginated like every list, with user and group counts", async () => {
    const { tenant, base, admin } = await setup();
    const ids: string[] = [];
    for (const name of ["one", "two", "three"]) ids.push((await admin.post(base, { name })).json.id);
    await addUsers(ids[0]!, tenant.id, 2);
    const first = await admin.get(`${base}?page_size=2`);
    expect(first.json.count).toBe(3);
    expect(first.json.results.map((d: { name: string }) => d.name)).toEqual(["three", "two"]);
    expect(first.json.next).toContain("page=2");
    const second = await admin.get(`${base}?cursor=${first.json.next_cursor}&page_size=2`);
    expect(second.json.results).toMatchObject([{ name: "one", user_count: 2, group_count: 0 }]);
    expect(second.json.next).toBeNull();
  });
});

describe("changing a directory", () => {
  test("a new name is directory.updated with from and to; the same values again emit nothing", async () => {
    const { tenant, admin, one, directory } = await withDirectory();
    const before = (await admin.get(one)).json;
    const res = await admin.patch(one, { name: "Okta (prod)" });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: "Okta (prod)", enabled: true });
    expect(Date.parse(res.json.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at));
    const [updated] = await events(tenant.id, "directory.updated");
    expect(updated).toMatchObject({ targetId: directory.id, targetName: "Okta (prod)" });
    expect(updated!.details).toEqual({ name: "Okta (prod)", changes: { name: { from: "Okta production", to: "Okta (prod)" } } });
    expect(reconcile).not.toHaveBeenCalled();

    const count = (await directoryEvents(tenant.id)).length;
    for (const body of [{}, { name: "Okta (prod)", enabled: true, default_role: null, role_mappings: [] }]) {
      const again = await admin.patch(one, body);
      expect(again.status).toBe(200);
      expect(again.json.updated_at).toBe(res.json.updated_at);
    }
    expect(await directoryEvents(tenant.id)).toHaveLength(count);
  });

  test("enabled flipping is directory.disabled, then directory.enabled (no .updated)", async () => {
    const { tenant, admin, one } = await withDirectory();
    expect((await admin.patch(one, { enabled: false })).json.enabled).toBe(false);
    expect((await admin.patch(one, { enabled: false })).status).toBe(200);
    expect((await admin.patch(one, { enabled: true })).json.enabled).toBe(true);
    const types = (await directoryEvents(tenant.id)).map((e) => e.eventType);
    expect(types).toEqual(["directory.created", "directory.disabled", "directory.enabled"]);
    const [disabled] = await events(tenant.id, "directory.disabled");
    expect(disabled!.details).toMatchObject({ changes: { enabled: { from: true, to: false } } });
  });

  test("new role mappings or default role recompute every user of the directory, in order-sensitive comparison", async () => {
    const { tenant, admin, one, directory } = await withDirectory({ role_mappings: [{ group: "Eng", role: "admin" }] });
    const userIds = await addUsers(directory.id, tenant.id, 3);
    const mappings = [
      { group: "Eng", role: "admin" },
      { group: "Support", role: "viewer" },
    ];
    const res = await admin.patch(one, { role_mappings: mappings });
    expect(res.json.role_mappings).toEqual(mappings);
    expect(reconcile).toHaveBeenCalledTimes(1);
    const [, dir, ids, actor, options] = reconcile.mock.calls[0]!;
    expect(dir).toMatchObject({ id: directory.id, roleMappings: mappings });
    expect([...ids].sort()).toEqual([...userIds].sort());
    expect(actor.id).not.toMatch(/^directory:/);
    expect(options ?? {}).not.toMatchObject({ deleting: true });

    // Reordering changes which mapping wins: a change. The same list again is not.
    await admin.patch(one, { role_mappings: [...mappings].reverse() });
    await admin.patch(one, { role_mappings: [...mappings].reverse() });
    expect(reconcile).toHaveBeenCalledTimes(2);
    await admin.patch(one, { default_role: "viewer" });
    expect(reconcile).toHaveBeenCalledTimes(3);
    const updates = await events(tenant.id, "directory.updated");
    expect(updates.map((e) => Object.keys((e.details as { changes: object }).changes))).toEqual([
      ["role_mappings"],
      ["role_mappings"],
      ["default_role"],
    ]);
    expect(updates[2]!.details).toMatchObject({ changes: { default_role: { from: null, to: "viewer" } } });
  });

  test("bad fields are 400s naming them, and change nothing", async () => {
    const { tenant, admin, one } = await withDirectory();
    for (const [body, path] of [
      [{ role_mappings: [{ group: "Eng", role: "owner" }] }, "role_mappings.0.role"],
      [{ enabled: "false" }, "enabled"],
      [{ name: "" }, "name"],
      [{ default_role: "superuser" }, "default_role"],
    ] as const) {
      const res = await admin.patch(one, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    // The token is never set through a PATCH: an unknown field is refused like any other.
    const token = await admin.patch(one, { token: "scim_mine" });
    expect(token.status).toBe(400);
    expect(token.text).toContain("token");
    expect((await directoryEvents(tenant.id)).map((e) => e.eventType)).toEqual(["directory.created"]);
  });
});

describe("rotating the token", () => {
  test("needs a step-up; then a new token once, the old hash gone at once, directory.token_rotated", async () => {
    const { tenant, admin, fresh, one, directory } = await withDirectory();
    const refused = await fresh.post(`${one}/rotate-token`);
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe("step_up_required");
    expect(await events(tenant.id, "directory.token_rotated")).toHaveLength(0);

    expect((await admin.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
    const res = await admin.post(`${one}/rotate-token`);
    expect(res.status).toBe(200);
    expect(res.json.token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
    expect(res.json.token).not.toBe(directory.token);
    expect(res.json).toMatchObject({ id: directory.id, token_hint: res.json.token.slice(-4) });
    const prisma = await db();
    const row = await prisma.directory.findUniqueOrThrow({ where: { id: directory.id } });
    expect(row.tokenHash).toBe(hashDirectoryToken(res.json.token));
    expect(await prisma.directory.findFirst({ where: { tokenHash: hashDirectoryToken(directory.token) } })).toBeNull();
    expect((await admin.get(one)).text).not.toContain(res.json.token);
    const [rotated] = await events(tenant.id, "directory.token_rotated");
    expect(rotated!.details).toMatchObject({ previous_token_hint: directory.token_hint, token_hint: res.json.token_hint });
    expect(JSON.stringify(rotated!.details)).not.toContain(res.json.token);
  });
});

describe("deleting a directory", () => {
  test("needs a step-up; deprovisions its users through the lifecycle, removes everything, directory.deleted", async () => {
    const { tenant, admin, fresh, viewer, one, directory } = await withDirectory();
    const userIds = await addUsers(directory.id, tenant.id, 2);
    expect((await viewer.delete(one)).status).toBe(403);
    const refused = await fresh.delete(one);
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe("step_up_required");
    expect(reconcile).not.toHaveBeenCalled();

    await admin.post("/api/v1/auth/step-up", { password: "admin-password" });
    let seenInactive: boolean[] = [];
    reconcile.mockImplementationOnce(async (tx, _dir, ids) => {
      seenInactive = (await tx.directoryUser.findMany({ where: { id: { in: [...ids] } } })).map(
        (u) => !u.active && u.deprovisionedAt !== null,
      );
      return [];
    });
    const res = await admin.delete(one);
    expect(res.status).toBe(204);
    expect(reconcile).toHaveBeenCalledTimes(1);
    const [, , ids, , options] = reconcile.mock.calls[0]!;
    expect([...ids].sort()).toEqual([...userIds].sort());
    expect(options).toEqual({ deleting: true });
    expect(seenInactive).toEqual([true, true]);

    expect((await admin.get(one)).status).toBe(404);
    expect(await (await db()).directoryUser.count({ where: { id: { in: userIds } } })).toBe(0);
    const [deleted] = await events(tenant.id, "directory.deleted");
    expect(deleted).toMatchObject({ targetId: directory.id, targetName: "Okta production" });
    expect(deleted!.details).toMatchObject({ name: "Okta production", user_count: 2, group_count: 0 });
  });
});

describe("isolation", () => {
  test("another tenant's directory is a 404 for every operation, stepped up or not; so is an id that is not a uuid", async () => {
    const a = await withDirectory();
    const b = await setup();
    await b.admin.post("/api/v1/auth/step-up", { password: "admin-password" });
    const cases = [
      [b.admin, `${a.base}/${a.directory.id}`],
      [b.admin, `${b.base}/${a.directory.id}`],
      [a.admin, `${a.base}/not-a-uuid`],
    ] as const;
    for (const [admin, path] of cases) {
      expect((await admin.get(path)).status).toBe(404);
      expect((await admin.patch(path, { name: "Mine" })).status).toBe(404);
      expect((await admin.post(`${path}/rotate-token`)).status).toBe(404);
      expect((await admin.delete(path)).status).toBe(404);
      for (const sub of ["users", "groups", "requests", `users/${a.directory.id}`, `groups/${a.directory.id}`]) {
        expect((await admin.get(`${path}/${sub}`)).status, `${path}/${sub}`).toBe(404);
      }
    }
    expect((await a.admin.get(`${a.base}/${a.directory.id}`)).json.name).toBe("Okta production");
  });

  test("a viewer is refused every change (403) and the sync activity, and reads the rest", async () => {
    const { viewer, one } = await withDirectory();
    expect((await viewer.patch(one, { name: "Mine" })).status).toBe(403);
    expect((await viewer.post(`${one}/rotate-token`)).status).toBe(403);
    expect((await viewer.delete(one)).status).toBe(403);
    expect((await viewer.get(`${one}/requests`)).status).toBe(403);
    expect((await viewer.get(`${one}/users`)).status).toBe(200);
    expect((await viewer.get(`${one}/groups`)).status).toBe(200);
  });
});
