/** GET/POST /api/v1/users and PATCH /api/v1/users/{user_id}: platform users for operators. */
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, createUser, db, operator, tenantWithMembers } from "../support/fixtures.ts";

const api = apiServer();
let ops: ReturnType<typeof client>;
let opsId: string;
const tag = randomBytes(4).toString("hex");

beforeAll(async () => {
  const op = await operator();
  opsId = op.user.id;
  ops = client(api.url, op.token);
});

async function eventsFor(userId: string) {
  return (await db()).auditEvent.findMany({ where: { targetId: userId }, orderBy: { sequence: "asc" } });
}

describe("POST /api/v1/users", () => {
  test("an operator creates a support user with a first password: 201, Location and user.created; an existing email is 409", async () => {
    const email = `Support-${tag}@Example.com`;
    const res = await ops.post("/api/v1/users", { email, name: "Sam Support", password: "first-password-1", platform_role: "support" });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ email: email.toLowerCase(), name: "Sam Support", platform_role: "support", has_password: true });
    expect(res.json).not.toHaveProperty("password");
    expect(res.text).not.toContain("first-password-1");
    expect(res.headers.get("location")).toBe(`${api.url}/api/v1/users/${res.json.id}`);
    const events = await eventsFor(res.json.id);
    expect(events.map((e) => e.eventType)).toEqual(["user.created"]);
    expect(events[0]!.details).toMatchObject({ email: email.toLowerCase(), platform_role: "support" });

    const again = await ops.post("/api/v1/users", { email, password: "first-password-1", platform_role: "operator" });
    expect(again.status).toBe(409);
  });

  test.each([
    ["no password", { email: `a-${tag}@example.com`, platform_role: "operator" }, "password"],
    ["a short password", { email: `a-${tag}@example.com`, password: "short", platform_role: "operator" }, "password"],
    ["no platform role (tenant users are added as members)", { email: `a-${tag}@example.com`, password: "long-enough-1" }, "platform_role"],
    ["an unknown role", { email: `a-${tag}@example.com`, password: "long-enough-1", platform_role: "admin" }, "platform_role"],
    ["a bad email", { email: "nope", password: "long-enough-1", platform_role: "support" }, "email"],
  ])("rejects %s with 400 naming the field", async (_label, body, field) => {
    const res = await ops.post("/api/v1/users", body);
    expect(res.status).toBe(400);
    expect(res.json.errors[0].path).toBe(field);
  });

  test("support and tenant admins may not create users (403)", async () => {
    const support = client(api.url, await createToken((await createUser({ platformRole: "support" })).id));
    const { admin } = await tenantWithMembers();
    for (const caller of [support, client(api.url, admin.token)]) {
      const res = await caller.post("/api/v1/users", {
        email: `x-${tag}@example.com`,
        password: "long-enough-1",
        platform_role: "operator",
      });
      expect(res.status).toBe(403);
    }
  });
});

describe("GET /api/v1/users", () => {
  test("operators and support list everyone, searching email or name in any case, or an exact id; others get 403", async () => {
    const a = await createUser({ email: `ada-${tag}@example.com` });
    await (await db()).user.update({ where: { id: a.id }, data: { name: `Ada Lovelace ${tag}` } });
    const b = await createUser({ email: `grace-${tag}@example.com`, platformRole: "support" });

    const byEmail = await ops.get(`/api/v1/users?search=${`GRACE-${tag}`}`);
    expect(byEmail.json.results.map((u: { id: string }) => u.id)).toEqual([b.id]);
    const byName = await ops.get(`/api/v1/users?search=${encodeURIComponent(`lovelace ${tag}`)}`);
    expect(byName.json).toMatchObject({ count: 1, results: [{ id: a.id, name: `Ada Lovelace ${tag}`, platform_role: null }] });
    expect((await ops.get(`/api/v1/users?search=${a.id}`)).json.results[0].id).toBe(a.id);
    expect((await ops.get(`/api/v1/users?search=no-such-${tag}`)).json).toMatchObject({ count: 0, results: [] });

    const staff = await ops.get(`/api/v1/users?search=${tag}&platform_role=any`);
    expect(staff.json.results.map((u: { id: string }) => u.id)).toContain(b.id);
    expect(staff.json.results.map((u: { id: string }) => u.id)).not.toContain(a.id);
    expect((await ops.get("/api/v1/users?platform_role=admin")).json.errors[0].path).toBe("platform_role");

    const support = client(api.url, await createToken(b.id));
    expect((await support.get(`/api/v1/users?search=${tag}`)).json.count).toBeGreaterThanOrEqual(2);
    const { admin } = await tenantWithMembers();
    expect((await client(api.url, admin.token).get("/api/v1/users")).status).toBe(403);
  });

  test("paging keeps search and platform_role in the links", async () => {
    const prefix = `pager-${randomBytes(3).toString("hex")}`;
    for (let i = 0; i < 3; i++) await createUser({ email: `${prefix}-${i}@example.com`, platformRole: "support" });
    const first = await ops.get(`/api/v1/users?search=${prefix}&platform_role=support&page_size=2`);
    expect(first.json.count).toBe(3);
    const next = new URL(first.json.next);
    expect(next.searchParams.get("search")).toBe(prefix);
    expect(next.searchParams.get("platform_role")).toBe("support");
    expect((await ops.get(first.json.next)).json.results).toHaveLength(1);
  });
});

describe("PATCH /api/v1/users/{user_id}", () => {
  test("an operator promotes and demotes: user.updated with the change; unknown or bad id is 404", async () => {
    const user = await createUser();
    const promoted = await ops.patch(`/api/v1/users/${user.id}`, { platform_role: "operator" });
    expect(promoted.status, promoted.text).toBe(200);
    expect(promoted.json.platform_role).toBe("operator");
    const cleared = await ops.patch(`/api/v1/users/${user.id}`, { platform_role: null });
    expect(cleared.json.platform_role).toBeNull();
    const events = (await eventsFor(user.id)).filter((e) => e.eventType === "user.updated");
    expect(events.map((e) => e.details)).toEqual([
      { email: user.email, changes: { platform_role: { from: null, to: "operator" } } },
      { email: user.email, changes: { platform_role: { from: "operator", to: null } } },
    ]);
    expect((await ops.patch(`/api/v1/users/${user.id}`, { platform_role: "root" })).json.errors[0].path).toBe("platform_role");
    expect((await ops.patch(`/api/v1/users/00000000-0000-4000-8000-000000000000`, { platform_role: "support" })).status).toBe(404);
    expect((await ops.patch(`/api/v1/users/not-an-id`, { platform_role: "support" })).status).toBe(404);
  });

  test("support and tenant admins may not change roles (403)", async () => {
    const user = await createUser();
    const support = client(api.url, await createToken((await createUser({ platformRole: "support" })).id));
    expect((await support.patch(`/api/v1/users/${user.id}`, { platform_role: "operator" })).status).toBe(403);
  });

  test("the last operator cannot be demoted (409); with a second operator they can", async () => {
    const prisma = await db();
    // This database is shared with other tests of the file: leave exactly one operator, this one.
    const others = await prisma.user.findMany({ where: { platformRole: "operator", NOT: { id: opsId } } });
    await prisma.user.updateMany({ where: { id: { in: others.map((u) => u.id) } }, data: { platformRole: null } });
    try {
      const res = await ops.patch(`/api/v1/users/${opsId}`, { platform_role: "support" });
      expect(res.status).toBe(409);
      expect(res.json.detail).toMatch(/last operator/);
      expect((await prisma.user.findUniqueOrThrow({ where: { id: opsId } })).platformRole).toBe("operator");

      const second = await createUser();
      expect((await ops.patch(`/api/v1/users/${second.id}`, { platform_role: "operator" })).status).toBe(200);
      expect((await ops.patch(`/api/v1/users/${second.id}`, { platform_role: "support" })).status).toBe(200);
      expect((await ops.patch(`/api/v1/users/${second.id}`, { platform_role: "operator" })).status).toBe(200);
      const self = await ops.patch(`/api/v1/users/${opsId}`, { platform_role: "support" });
      expect(self.status).toBe(200);
      expect(self.json.platform_role).toBe("support");
    } finally {
      await prisma.user.updateMany({ where: { id: { in: [opsId, ...others.map((u) => u.id)] } }, data: { platformRole: "operator" } });
    }
  });
});
