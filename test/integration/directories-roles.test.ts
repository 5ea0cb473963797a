/**
 * Groups map to console roles (issue 23 item 5): `role_mappings` (first match wins, by display
 * name case-insensitively or by the IdP's id) and `default_role`; joining, leaving, renaming a
 * group and editing the mappings recompute at once; the directory governs the memberships of the
 * people it links (the last admin excepted); SSO sign-in takes the directory's role; the broker's
 * profile carries `directory_user_id` and the directory groups.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { apiServer } from "../support/api-server.ts";
import { createUser, db, tenantWithMembers } from "../support/fixtures.ts";
import { TestBrowser } from "../support/browser.ts";
import { eventsOf, oidcProvider, pathOf, signIn, uniqueDomain } from "../support/sso-signin.ts";
import { BrokerWorld, exchange, readProfile } from "../support/sso-broker.ts";
import {
  addDirectoryUser,
  addGroup,
  everyone,
  join,
  leave,
  makeDirectory,
  membershipOf,
  reconcile,
} from "../support/directory-lifecycle.ts";
import { mappedRole } from "../../server/directories/lifecycle-roles.ts";

const api = apiServer({ appUrl: true });
const world = new BrokerWorld(api);
beforeAll(() => world.start());
afterAll(() => world.close());

/** An address in the directory's tenant's verified domain (makeDirectory's `domain`). */
const email = (directory: { domain: string }) => `dir-${randomUUID().slice(0, 8)}@${directory.domain}`;
const roleOf = async (id: string) => (await (await db()).directoryUser.findUniqueOrThrow({ where: { id } })).role;

describe("the role a directory gives (pure)", () => {
  const admins = { displayName: "Admins", externalId: "00g-admins" };
  const engineering = { displayName: "Engineering", externalId: "00g-eng" };
  test("first match wins, by display name (any case) or by the IdP's id; else the default role", () => {
    const mappings = [
      { group: "engineering", role: "viewer" as const },
      { group: "00g-admins", role: "admin" as const },
    ];
    expect(mappedRole(mappings, null, [admins, engineering])).toBe("viewer");
    expect(mappedRole([...mappings].reverse(), null, [admins, engineering])).toBe("admin");
    expect(mappedRole(mappings, null, [admins])).toBe("admin");
    expect(mappedRole(mappings, null, [])).toBeNull();
    expect(mappedRole(mappings, "viewer", [{ displayName: "Sales", externalId: null }])).toBe("viewer");
    // An IdP id matches exactly, not by case: ids are opaque.
    expect(mappedRole([{ group: "00G-ADMINS", role: "admin" }], null, [admins])).toBeNull();
  });
});

describe("memberships from role mappings", () => {
  test("first match wins: a user in two mapped groups takes the first mapping's role", async () => {
    const { tenant } = await tenantWithMembers();
    const directory = await makeDirectory(tenant.id, {
      defaultRole: null,
      roleMappings: [
        { group: "ADMINS", role: "admin" },
        { group: "00g-eng", role: "viewer" },
      ],
    });
    const [admins, eng] = [await addGroup(directory, "Admins"), await addGroup(directory, "Engineering", "00g-eng")];
    const both = await addDirectoryUser(directory, email(directory));
    const engOnly = await addDirectoryUser(directory, email(directory));
    await join(directory, admins.id, both.id);
    await join(directory, eng.id, both.id);
    await join(directory, eng.id, engOnly.id);
    await reconcile(directory.id, [both.id, engOnly.id]);

    expect(await roleOf(both.id)).toBe("admin");
    expect(await roleOf(engOnly.id)).toBe("viewer");
    expect(await membershipOf(tenant.id, both.userName)).toBe("admin");
    expect(await membershipOf(tenant.id, engOnly.userName)).toBe("viewer");
    // Created without a password: they sign in through the tenant's SSO.
    const created = await (await db()).user.findUniqueOrThrow({ where: { email: engOnly.userName } });
    expect(created).toMatchObject({ passwordHash: null, name: "Grace Hopper" });
    const [event] = (await eventsOf(tenant.id, "user.created")).filter((e) => e.targetId === created.id);
    expect(event).toMatchObject({
      actorId: `directory:${directory.id}`,
      details: expect.objectContaining({ role: "viewer", method: "directory", new_user: true }),
    });
  });

  test.each([
    [null, null],
    ["viewer", "viewer"],
    ["admin", "admin"],
  ] as const)("default role %s: a user in no mapped group gets membership %s", async (defaultRole, expected) => {
    const { tenant } = await tenantWithMembers();
    const directory = await makeDirectory(tenant.id, { defaultRole, roleMappings: [{ group: "Admins", role: "admin" }] });
    const user = await addDirectoryUser(directory, email(directory));
    await reconcile(directory.id, [user.id]);
    expect(await roleOf(user.id)).toBe(expected);
    expect(await membershipOf(tenant.id, user.userName)).toBe(expected);
    // No role, no console account made for them.
    if (expected === null) expect(await (await db()).user.findUnique({ where: { email: user.userName } })).toBeNull();
  });

  test("joining and leaving a mapped group, renaming it, and editing the mappings recompute at once", async () => {
    const { tenant } = await tenantWithMembers();
    const directory = await makeDirectory(tenant.id, { defaultRole: "viewer", roleMappings: [{ group: "Admins", role: "admin" }] });
    const group = await addGroup(directory, "Admins");
    const user = await addDirectoryUser(directory, email(directory));
    await reconcile(directory.id, [user.id]);
    expect(await membershipOf(tenant.id, user.userName)).toBe("viewer");

    await join(directory, group.id, user.id);
    await reconcile(directory.id, [user.id]);
    expect(await membershipOf(tenant.id, user.userName)).toBe("admin");

    await (await db()).directoryGroup.update({ where: { id: group.id }, data: { displayName: "Former admins" } });
    await reconcile(directory.id, [user.id]);
    expect(await membershipOf(tenant.id, user.userName)).toBe("viewer");

    await (
      await db()
    ).directory.update({ where: { id: directory.id }, data: { roleMappings: [{ group: "former ADMINS", role: "admin" }] } });
    await reconcile(directory.id, await everyone(directory.id));
    expect(await membershipOf(tenant.id, user.userName)).toBe("admin");
    const [updated] = (await eventsOf(tenant.id, "user.updated")).slice(-1);
    expect(updated).toMatchObject({
      actorId: `directory:${directory.id}`,
      details: expect.objectContaining({ changes: { role: { from: "viewer", to: "admin" } } }),
    });

    await leave(group.id, user.id);
    await (await db()).directory.update({ where: { id: directory.id }, data: { defaultRole: null } });
    await reconcile(directory.id, [user.id]);
    expect(await membershipOf(tenant.id, user.userName)).toBeNull();
    const [removed] = (await eventsOf(tenant.id, "user.removed")).slice(-1);
    expect(removed?.details).toMatchObject({ reason: "no_role", directory_id: directory.id });
  });

  test("many users reconciled in one call: each gets the role and its own event", async () => {
    const { tenant } = await tenantWithMembers();
    const directory = await makeDirectory(tenant.id, { defaultRole: "viewer", roleMappings: [{ group: "Admins", role: "admin" }] });
    const group = await addGroup(directory, "Admins");
    const users = await Promise.all(Array.from({ length: 120 }, () => addDirectoryUser(directory, email(directory))));
    await reconcile(directory.id, await everyone(directory.id));
    await (
      await db()
    ).directoryGroupMember.createMany({
      data: users.map((u) => ({ groupId: group.id, userId: u.id, directoryId: directory.id })),
    });
    await reconcile(directory.id, await everyone(directory.id));

    const roles = await (await db()).membership.groupBy({ by: ["role"], where: { tenantId: tenant.id }, _count: true });
    expect(Object.fromEntries(roles.map((r) => [r.role, r._count]))).toEqual({ admin: 121, viewer: 1 });
    expect(await eventsOf(tenant.id, "user.created")).toHaveLength(120);
    expect(await eventsOf(tenant.id, "user.updated")).toHaveLength(120);
  });

  test("a user whose email changes: the new address's account gets the role, the old one loses it", async () => {
    const { tenant } = await tenantWithMembers();
    const directory = await makeDirectory(tenant.id, { defaultRole: "viewer" });
    const [before, after] = [email(directory), email(directory)];
    const user = await addDirectoryUser(directory, before);
    await reconcile(directory.id, [user.id]);
    expect(await membershipOf(tenant.id, before)).toBe("viewer");

    await (await db()).directoryUser.update({ where: { id: user.id }, data: { primaryEmail: after } });
    await reconcile(directory.id, [user.id]);
    expect(await membershipOf(tenant.id, after)).toBe("viewer");
    expect(await membershipOf(tenant.id, before)).toBeNull();
    const linked = await (await db()).user.findUniqueOrThrow({ where: { email: after } });
    expect((await (await db()).directoryUser.findUniqueOrThrow({ where: { id: user.id } })).userId).toBe(linked.id);
  });

  test("two requests about one person at once: one membership, one user.created, no failure", async () => {
    const { tenant } = await tenantWithMembers();
    const [first, second] = [await makeDirectory(tenant.id), await makeDirectory(tenant.id)];
    const address = email(first);
    const [a, b] = [await addDirectoryUser(first, address), await addDirectoryUser(second, address)];
    await Promise.all([reconcile(first.id, [a.id]), reconcile(second.id, [b.id])]);
    expect(await membershipOf(tenant.id, address)).toBe("viewer");
    const user = await (await db()).user.findUniqueOrThrow({ where: { email: address } });
    expect((await eventsOf(tenant.id, "user.created")).filter((e) => e.targetId === user.id)).toHaveLength(1);
  });

  test("a reconcile that changes nothing emits nothing", async () => {
    const { tenant } = await tenantWithMembers();
    const directory = await makeDirectory(tenant.id, { defaultRole: "viewer" });
    const user = await addDirectoryUser(directory, email(directory));
    await reconcile(directory.id, [user.id]);
    const before = await (await db()).auditEvent.count({ where: { tenantId: tenant.id } });
    await reconcile(directory.id, [user.id]);
    expect(await (await db()).auditEvent.count({ where: { tenantId: tenant.id } })).toBe(before);
  });
});

describe("members who were there before the directory", () => {
  /** A tenant whose admin (and a second admin, `keeper`) are in the directory's verified domain, joined without it. */
  async function existingAdmins(options: Parameters<typeof makeDirectory>[1]) {
    const { tenant } = await tenantWithMembers();
    const directory = await makeDirectory(tenant.id, options);
    const prisma = await db();
    const [admin, keeper] = [await createUser({ email: email(directory) }), await createUser({ email: email(directory) })];
    await prisma.membership.createMany({
      data: [admin, keeper].map((u) => ({ tenantId: tenant.id, userId: u.id, role: "admin" })),
    });
    await prisma.membership.deleteMany({ where: { tenantId: tenant.id, userId: { notIn: [admin.id, keeper.id] } } });
    return { tenant, directory, admin, keeper };
  }

  test("by default the directory does not govern them: an invited admin it maps to viewer stays admin, no role keeps them", async () => {
    const { tenant, directory, admin } = await existingAdmins({ defaultRole: "viewer" });
    const adminUser = await addDirectoryUser(directory, admin.email.toUpperCase());
    await reconcile(directory.id, [adminUser.id]);
    expect(await membershipOf(tenant.id, admin.email)).toBe("admin");
    // Linked all the same: the tenant owns the address.
    expect((await (await db()).directoryUser.findUniqueOrThrow({ where: { id: adminUser.id } })).userId).toBe(admin.id);
    await (await db()).directory.update({ where: { id: directory.id }, data: { defaultRole: null } });
    await reconcile(directory.id, await everyone(directory.id));
    expect(await membershipOf(tenant.id, admin.email)).toBe("admin");
  });

  test("opted in (governs_existing_members), it captures them: viewer, then no role removes them", async () => {
    const { tenant, directory, admin } = await existingAdmins({ defaultRole: "viewer", governsExisting: true });
    const adminUser = await addDirectoryUser(directory, admin.email);
    await reconcile(directory.id, [adminUser.id]);
    expect(await membershipOf(tenant.id, admin.email)).toBe("viewer");
    const captured = await (await db()).membership.findFirstOrThrow({ where: { tenantId: tenant.id, userId: admin.id } });
    expect(captured.directoryId).toBe(directory.id);
    await (await db()).directory.update({ where: { id: directory.id }, data: { defaultRole: null } });
    await reconcile(directory.id, await everyone(directory.id));
    expect(await membershipOf(tenant.id, admin.email)).toBeNull();
    expect(await roleOf(adminUser.id)).toBeNull();
  });

  test("a mapping never demotes or removes the tenant's last admin; the refusal is audited", async () => {
    const { tenant, directory, admin, keeper } = await existingAdmins({ defaultRole: null, governsExisting: true });
    await (await db()).membership.delete({ where: { tenantId_userId: { tenantId: tenant.id, userId: keeper.id } } });
    const user = await addDirectoryUser(directory, admin.email);
    await reconcile(directory.id, [user.id]);
    expect(await membershipOf(tenant.id, admin.email)).toBe("admin");
    const [refused] = await eventsOf(tenant.id, "directory_user.deprovision_refused");
    expect(refused?.details).toMatchObject({ user_id: admin.id, action: "remove", reason: "last_admin" });
  });
});

describe("SSO sign-in of a directory user", () => {
  async function oidcTenant(defaultRole = "viewer") {
    const { tenant, admin } = await tenantWithMembers();
    const domain = uniqueDomain();
    await oidcProvider(api.url, admin.token, tenant.id, world.op, { domains: [domain], defaultRole });
    return { tenant, domain };
  }

  test("takes the directory's role, not the provider's default role", async () => {
    const { tenant, domain } = await oidcTenant("viewer");
    const who = world.person(domain);
    const directory = await makeDirectory(tenant.id, { defaultRole: "admin" });
    const user = await addDirectoryUser(directory, who.email);
    await reconcile(directory.id, [user.id]);
    // Say an admin removed the membership by hand since: signing in restores the directory's role.
    await (await db()).membership.deleteMany({ where: { tenantId: tenant.id, user: { email: who.email } } });

    expect(pathOf((await signIn(new TestBrowser(), api.url, world.op.origin, who.email)).location)).toBe(`/tenants/${tenant.id}`);
    expect(await membershipOf(tenant.id, who.email)).toBe("admin");
  });

  test("an active directory user the directory gives no role may not join by signing in, auto-join or not", async () => {
    const { tenant, domain } = await oidcTenant("viewer");
    const who = world.person(domain);
    const directory = await makeDirectory(tenant.id, { defaultRole: null });
    const user = await addDirectoryUser(directory, who.email);
    await reconcile(directory.id, [user.id]);
    expect(pathOf((await signIn(new TestBrowser(), api.url, world.op.origin, who.email)).location)).toBe("/login?sso_error=not_a_member");
    expect(await membershipOf(tenant.id, who.email)).toBeNull();
  });
});

describe("the broker's profile of a directory user", () => {
  test("carries directory_user_id, and groups are the directory's groups", async () => {
    const directory = await makeDirectory(world.oidc.tenantId, { defaultRole: null });
    const who = world.person(world.oidc.domain);
    const user = await addDirectoryUser(directory, who.email);
    for (const name of ["Support", "Engineering"]) await join(directory, (await addGroup(directory, name)).id, user.id);

    const flow = await world.flow({ login_hint: who.email });
    const code = new URL(flow.back.location!).searchParams.get("code")!;
    const token = await exchange(api.url, world.app, code, flow.verifier);
    expect(token.json.profile).toMatchObject({ email: who.email, directory_user_id: user.id, groups: ["Engineering", "Support"] });
    // The IdP's own claim is still there.
    expect(token.json.profile.raw_attributes).toMatchObject({ groups: ["engineering"] });
    expect((await readProfile(api.url, token.json.access_token)).json).toMatchObject({ directory_user_id: user.id });
  });

  test("a person who is no directory user gets the IdP's groups and no directory_user_id", async () => {
    const { code, verifier } = await world.code();
    const token = await exchange(api.url, world.app, code, verifier);
    expect(token.json.profile.groups).toEqual(["engineering"]);
    expect(token.json.profile).not.toHaveProperty("directory_user_id");
  });
});
