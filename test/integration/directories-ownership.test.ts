/**
 * Issue 38: a directory acts only on people its tenant owns. Each attack of the review, through the
 * real SCIM endpoint and REST API: a SCIM token at a directory's defaults removing every admin, a
 * role mapping making an outsider admin, `default_role` pulling another tenant's admin and the
 * platform operator in, directory users as an account-existence oracle; and what keeps the tenant
 * whole: the last admin on every path, directories governing only what they created or captured,
 * step-up for what grants power, domain verification linking (and its loss unlinking) people.
 */
import { describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, createUser, db, operator, tenantWithMembers, verifiedDomains } from "../support/fixtures.ts";
import { createTestDirectory } from "../support/directories.ts";
import { uniqueDomain } from "../support/sso-signin.ts";

const api = apiServer();
const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const scimJson = { "content-type": "application/scim+json" };

const person = (email: string, active = true) => ({
  schemas: [USER],
  userName: email,
  name: { givenName: "Ada", familyName: "Lovelace" },
  emails: [{ value: email, type: "work", primary: true }],
  active,
});

/** A tenant that owns a verified domain, with two admins (password accounts, joined by an operator) in it. */
async function ownedTenant() {
  const { tenant, admin, viewer } = await tenantWithMembers();
  const domain = uniqueDomain();
  await verifiedDomains(tenant.id, [domain], { autoJoin: false });
  const admins = [];
  for (const name of ["alice", "bob"]) {
    const user = await createUser({ email: `${name}@${domain}`, password: "admin-password" });
    await (await db()).membership.create({ data: { tenantId: tenant.id, userId: user.id, role: "admin" } });
    admins.push({ user, token: await createToken(user.id) });
  }
  // The fixture's own admin (outside the domain) leaves, so alice and bob are the tenant's admins.
  await (await db()).membership.delete({ where: { tenantId_userId: { tenantId: tenant.id, userId: admin.user.id } } });
  return { tenant, domain, admins, viewer };
}

async function scimFor(tenantId: string, options?: Parameters<typeof createTestDirectory>[1]) {
  const dir = await createTestDirectory(tenantId, options);
  const scim = client(api.url, dir.token);
  const at = (path: string) => `${dir.scimPath}${path}`;
  const push = async (email: string, active = true) => {
    const res = await scim.post(at("/Users"), person(email, active), scimJson);
    expect(res.status, res.text).toBe(201);
    return res.json.id as string;
  };
  return { dir, scim, at, push };
}

const roleIn = async (tenantId: string, userId: string) =>
  (await (await db()).membership.findUnique({ where: { tenantId_userId: { tenantId, userId } } }))?.role ?? null;

const eventsOf = async (tenantId: string, type: string) =>
  (await db()).auditEvent.findMany({ where: { tenantId, eventType: type }, orderBy: { sequence: "asc" } });

async function steppedUp(token: string, password = "admin-password") {
  const api1 = client(api.url, token);
  expect((await api1.post("/api/v1/auth/step-up", { password })).status).toBe(200);
  return api1;
}

describe("a SCIM token at a directory's defaults cannot remove the tenant's admins", () => {
  test("pushing every admin with active:false leaves them all admins: the directory did not make them members", async () => {
    const { tenant, admins } = await ownedTenant();
    const { push, dir } = await scimFor(tenant.id);
    for (const { user } of admins) await push(user.email, false);
    for (const { user } of admins) expect(await roleIn(tenant.id, user.id)).toBe("admin");
    expect(await eventsOf(tenant.id, "user.removed")).toEqual([]);
    // Linked (the tenant owns them), deprovisioned in the directory, and only that.
    const linked = await (await db()).directoryUser.findMany({ where: { directoryId: dir.id } });
    expect(linked.map((u) => [u.userId !== null, u.active])).toEqual([
      [true, false],
      [true, false],
    ]);
  });

  test("pushing them active in no group (no role) changes nothing either", async () => {
    const { tenant, admins } = await ownedTenant();
    const { push } = await scimFor(tenant.id, { defaultRole: null });
    for (const { user } of admins) await push(user.email, true);
    for (const { user } of admins) expect(await roleIn(tenant.id, user.id)).toBe("admin");
  });

  test("a directory opted in to govern existing members removes the first admin, and never the last", async () => {
    const { tenant, admins } = await ownedTenant();
    const { push, dir } = await scimFor(tenant.id);
    await (await db()).directory.update({ where: { id: dir.id }, data: { governsExistingMembers: true } });
    const [alice, bob] = admins;
    await push(alice!.user.email, false);
    expect(await roleIn(tenant.id, alice!.user.id)).toBeNull();
    const bobInDirectory = await push(bob!.user.email, false);

    expect(await roleIn(tenant.id, bob!.user.id)).toBe("admin");
    const stored = await (await db()).directoryUser.findUniqueOrThrow({ where: { id: bobInDirectory } });
    expect(stored.active).toBe(false);
    const [refused] = await eventsOf(tenant.id, "directory_user.deprovision_refused");
    expect(refused).toMatchObject({
      actorId: `directory:${dir.id}`,
      targetType: "directory_user",
      targetId: bobInDirectory,
      details: { directory_id: dir.id, email: bob!.user.email, user_id: bob!.user.id, action: "remove", reason: "last_admin" },
    });
    const logged = await (await db()).scimRequest.findFirst({ where: { directoryId: dir.id }, orderBy: { id: "desc" } });
    expect(logged?.summary).toContain(`deprovision refused: ${bob!.user.email} is the tenant's last admin`);
    // Bob still works as admin.
    expect((await client(api.url, bob!.token).get(`/api/v1/tenants/${tenant.id}/members`)).status).toBe(200);
  });

  test("the same through a DELETE of the last admin's directory user: refused, the membership stays", async () => {
    const { tenant, admins } = await ownedTenant();
    const { push, scim, at, dir } = await scimFor(tenant.id);
    await (await db()).directory.update({ where: { id: dir.id }, data: { governsExistingMembers: true } });
    await push(admins[0]!.user.email, false);
    const last = await push(admins[1]!.user.email, true);
    expect((await scim.delete(at(`/Users/${last}`))).status).toBe(204);
    expect(await roleIn(tenant.id, admins[1]!.user.id)).toBe("admin");
    // Refused twice: pushed in no group (the directory gives no role), then deleted.
    const refused = await eventsOf(tenant.id, "directory_user.deprovision_refused");
    expect(refused.map((e) => [e.targetId, (e.details as { action: string }).action])).toEqual([
      [last, "remove"],
      [last, "remove"],
    ]);
  });
});

describe("a directory grants nothing outside the tenant's verified domains", () => {
  test("a mapping Admins → admin does not make attacker@evil.test an admin, nor give it an account", async () => {
    const { tenant } = await ownedTenant();
    const { push, scim, at, dir } = await scimFor(tenant.id);
    await (await db()).directory.update({ where: { id: dir.id }, data: { roleMappings: [{ group: "Admins", role: "admin" }] } });
    const attacker = `attacker-${randomUUID().slice(0, 6)}@evil.test`;
    const id = await push(attacker);
    const group = await scim.post(at("/Groups"), { schemas: [GROUP], displayName: "Admins", members: [{ value: id }] }, scimJson);
    expect(group.status, group.text).toBe(201);

    expect(await (await db()).user.findUnique({ where: { email: attacker } })).toBeNull();
    const stored = await (await db()).directoryUser.findUniqueOrThrow({ where: { id } });
    expect(stored).toMatchObject({ userId: null, role: null, unlinkedReason: "outside_verified_domains" });
    // A password reset for the address gives it nothing either: there is no account.
    const reset = await client(api.url).post("/api/v1/auth/password-reset", { email: attacker });
    expect([202, 404]).toContain(reset.status);
    expect(await (await db()).user.findUnique({ where: { email: attacker } })).toBeNull();
  });

  test("default_role viewer does not pull another tenant's admin or the platform operator in", async () => {
    const { tenant } = await ownedTenant();
    const other = await tenantWithMembers();
    const op = await operator();
    const { push } = await scimFor(tenant.id, { defaultRole: "viewer" });
    await push(other.admin.user.email);
    await push(op.user.email);
    expect(await roleIn(tenant.id, other.admin.user.id)).toBeNull();
    expect(await roleIn(tenant.id, op.user.id)).toBeNull();
    expect((await client(api.url, op.token).get("/api/v1/me")).json.memberships).toEqual([]);
  });

  test("the API and events show such a user as not linked, with the reason", async () => {
    const { tenant, admins, viewer } = await ownedTenant();
    const { push, dir } = await scimFor(tenant.id, { defaultRole: "viewer" });
    const outsider = await push(`someone-${randomUUID().slice(0, 6)}@elsewhere.test`);
    const res = await client(api.url, viewer.token).get(`/api/v1/tenants/${tenant.id}/directories/${dir.id}/users/${outsider}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ linked: false, unlinked_reason: "outside_verified_domains", user_id: null, role: null });
    const unlinked = await client(api.url, admins[0]!.token).get(`/api/v1/tenants/${tenant.id}/directories/${dir.id}/users?linked=false`);
    expect(unlinked.json.results.map((u: { id: string }) => u.id)).toEqual([outsider]);
  });
});

describe("directory users reveal no account that is not the tenant's", () => {
  test("a viewer sees user_id only for accounts that are members of the tenant", async () => {
    const { tenant, domain, admins, viewer } = await ownedTenant();
    const other = await tenantWithMembers();
    const { push, dir } = await scimFor(tenant.id, { defaultRole: null });
    // Another tenant's admin (an account outside the domain), and an account in the domain that is no member.
    await push(other.admin.user.email);
    const notMember = await createUser({ email: `carol@${domain}` });
    await push(notMember.email);
    await push(admins[0]!.user.email);
    const list = await client(api.url, viewer.token).get(`/api/v1/tenants/${tenant.id}/directories/${dir.id}/users?page_size=10`);
    const byName = Object.fromEntries(list.json.results.map((u: { user_name: string }) => [u.user_name, u]));
    expect(byName[other.admin.user.email]).toMatchObject({ user_id: null, linked: false });
    expect(byName[notMember.email]).toMatchObject({ user_id: null, linked: true });
    expect(byName[admins[0]!.user.email]).toMatchObject({ user_id: admins[0]!.user.id, linked: true });
    expect(JSON.stringify(list.json)).not.toContain(other.admin.user.id);
  });
});

describe("a directory and what it grants are an admin's power: step-up", () => {
  test("creating one, and changing default_role, role_mappings or governs_existing_members, need a fresh step-up", async () => {
    const { tenant, admins } = await ownedTenant();
    const admin = client(api.url, admins[0]!.token);
    const base = `/api/v1/tenants/${tenant.id}/directories`;
    const refused = await admin.post(base, { name: "Okta" });
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe("step_up_required");
    await steppedUp(admins[0]!.token);
    const made = await admin.post(base, { name: "Okta", default_role: "viewer" });
    expect(made.status, made.text).toBe(201);
    expect(made.json.governs_existing_members).toBe(false);

    // Another admin's token has no step-up of its own.
    const other = client(api.url, admins[1]!.token);
    const one = `${base}/${made.json.id}`;
    expect((await other.patch(one, { name: "Okta (prod)" })).status).toBe(200);
    for (const body of [
      { default_role: "admin" },
      { role_mappings: [{ group: "Admins", role: "admin" }] },
      { governs_existing_members: true },
    ]) {
      const res = await other.patch(one, body);
      expect(res.status, JSON.stringify(body)).toBe(401);
      expect(res.json.code).toBe("step_up_required");
    }
    await steppedUp(admins[1]!.token);
    const opted = await other.patch(one, { governs_existing_members: true });
    expect(opted.status).toBe(200);
    expect(opted.json.governs_existing_members).toBe(true);
    const [updated] = (await eventsOf(tenant.id, "directory.updated")).filter((e) => JSON.stringify(e.details).includes("governs"));
    expect(updated?.details).toMatchObject({ changes: { governs_existing_members: { from: false, to: true } } });
  });
});

describe("the last admin is kept on every path", () => {
  test("the database refuses a transaction that would leave a tenant without an admin, whatever path wrote it", async () => {
    const { tenant, admins } = await ownedTenant();
    const prisma = await db();
    await prisma.membership.delete({ where: { tenantId_userId: { tenantId: tenant.id, userId: admins[0]!.user.id } } });
    await expect(
      prisma.membership.delete({ where: { tenantId_userId: { tenantId: tenant.id, userId: admins[1]!.user.id } } }),
    ).rejects.toThrow(/memberships_last_admin|without an admin/);
    await expect(
      prisma.membership.update({
        where: { tenantId_userId: { tenantId: tenant.id, userId: admins[1]!.user.id } },
        data: { role: "viewer" },
      }),
    ).rejects.toThrow(/memberships_last_admin|without an admin/);
    expect(await roleIn(tenant.id, admins[1]!.user.id)).toBe("admin");
    // A swap in one transaction is fine: the check runs at COMMIT.
    const viewer = await createUser();
    await prisma.$transaction([
      prisma.membership.create({ data: { tenantId: tenant.id, userId: viewer.id, role: "viewer" } }),
      prisma.membership.update({ where: { tenantId_userId: { tenantId: tenant.id, userId: viewer.id } }, data: { role: "admin" } }),
      prisma.membership.update({
        where: { tenantId_userId: { tenantId: tenant.id, userId: admins[1]!.user.id } },
        data: { role: "viewer" },
      }),
    ]);
    expect(await roleIn(tenant.id, viewer.id)).toBe("admin");
  });

  test("two transactions each removing one of two admins at once: one of them fails", async () => {
    const { tenant, admins } = await ownedTenant();
    const prisma = await db();
    const results = await Promise.allSettled(
      admins.map(({ user }) => prisma.membership.delete({ where: { tenantId_userId: { tenantId: tenant.id, userId: user.id } } })),
    );
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(1);
    expect(await prisma.membership.count({ where: { tenantId: tenant.id, role: "admin" } })).toBe(1);
  });

  test("deleting or turning off the SSO provider the only admin signs in through is 409", async () => {
    const { tenant } = await tenantWithMembers();
    const domain = uniqueDomain();
    await verifiedDomains(tenant.id, [domain]);
    const prisma = await db();
    // The only admin has no password: they sign in through the tenant's SSO.
    const admin = await createUser({ email: `it@${domain}` });
    await prisma.membership.create({ data: { tenantId: tenant.id, userId: admin.id, role: "admin" } });
    await prisma.membership.deleteMany({ where: { tenantId: tenant.id, userId: { not: admin.id } } });
    const provider = await prisma.ssoProvider.create({
      data: { tenantId: tenant.id, providerType: "saml", name: "Okta", metadataUrl: "https://idp.example/metadata", enabled: true },
    });
    await prisma.ssoDomain.create({ data: { tenantId: tenant.id, domain, providerId: provider.id } });
    await prisma.ssoProvider.update({ where: { id: provider.id }, data: { enabled: true } });
    const op = await operator();
    await prisma.user.update({
      where: { id: op.user.id },
      data: { passwordHash: (await createUser({ password: "op-password" })).passwordHash },
    });
    const opApi = await steppedUp(op.token, "op-password");
    const one = `/api/v1/tenants/${tenant.id}/sso/${provider.id}`;
    const deleted = await opApi.delete(one);
    expect(deleted.status, deleted.text).toBe(409);
    expect(deleted.json.detail).toMatch(/sign in/);
    expect((await opApi.patch(one, { enabled: false })).status).toBe(409);
    // An admin with a password: the provider may go.
    const second = await createUser({ password: "x-password" });
    await prisma.membership.create({ data: { tenantId: tenant.id, userId: second.id, role: "admin" } });
    expect((await opApi.delete(one)).status).toBe(204);
  });
});

describe("verifying a domain links the people a directory holds there, losing it unlinks them", () => {
  test("a pending domain's people stay unlinked until it is verified; then the default role applies at once", async () => {
    const { tenant } = await tenantWithMembers();
    const domain = uniqueDomain();
    const { push } = await scimFor(tenant.id, { defaultRole: "viewer" });
    const dana = `dana@${domain}`;
    const id = await push(dana);
    expect(await (await db()).directoryUser.findUniqueOrThrow({ where: { id } })).toMatchObject({
      userId: null,
      unlinkedReason: "outside_verified_domains",
    });
    const op = await operator();
    const added = await client(api.url, op.token).post(`/api/v1/tenants/${tenant.id}/domains`, { domain });
    expect(added.status, added.text).toBe(201);
    const verified = await client(api.url, op.token).post(`/api/v1/tenants/${tenant.id}/domains/${added.json.id}/verify`, {
      override: true,
      reason: "test",
    });
    expect(verified.json.state).toBe("verified");
    const user = await (await db()).user.findUniqueOrThrow({ where: { email: dana } });
    expect(await roleIn(tenant.id, user.id)).toBe("viewer");
    expect(await (await db()).membership.findFirst({ where: { tenantId: tenant.id, userId: user.id } })).toMatchObject({
      directoryId: expect.any(String),
    });

    // The domain deleted: the directory no longer holds her account; her membership stays.
    const admin = await tenantAdminOf(tenant.id);
    expect((await client(api.url, admin).delete(`/api/v1/tenants/${tenant.id}/domains/${added.json.id}`)).status).toBe(204);
    expect(await (await db()).directoryUser.findUniqueOrThrow({ where: { id } })).toMatchObject({
      userId: null,
      unlinkedReason: "outside_verified_domains",
    });
    expect(await roleIn(tenant.id, user.id)).toBe("viewer");
  });
});

async function tenantAdminOf(tenantId: string): Promise<string> {
  const member = await (await db()).membership.findFirstOrThrow({ where: { tenantId, role: "admin" } });
  return createToken(member.userId);
}
