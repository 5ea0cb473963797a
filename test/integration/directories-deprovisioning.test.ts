/**
 * Deprovisioning (issue 23 item 4): a directory user made inactive, or deleted, loses at once their
 * membership, their API tokens for the tenant, their console sessions of it and the broker's
 * access tokens, and is refused at SSO sign-in (console and broker) with reason `deprovisioned`;
 * reactivation restores sign-in, not the revoked tokens. Directory users are written straight to
 * the database and reconciled as the SCIM endpoint does; sign-ins go through a real OpenID
 * Provider on loopback.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, createUser, db, tenantWithMembers } from "../support/fixtures.ts";
import { TestBrowser } from "../support/browser.ts";
import { eventsOf, oidcProvider, pathOf, sessionCookieOf, signIn, uniqueDomain } from "../support/sso-signin.ts";
import { BrokerWorld, exchange, readProfile, returned } from "../support/sso-broker.ts";
import { codeOf, consoleCaller } from "../support/console-caller.ts";
import { addDirectoryUser, makeDirectory, membershipOf, reconcile, setActive } from "../support/directory-lifecycle.ts";
import { database } from "../../server/db/client.ts";
import { startSession } from "../../server/auth/sessions.ts";

const api = apiServer({ appUrl: true });
const world = new BrokerWorld(api);
beforeAll(() => world.start());
afterAll(() => world.close());

/** A console cookie for a session of this user scoped to the tenant, as an SSO sign-in records it. */
async function ssoSessionCookie(userId: string, tenantId: string): Promise<{ cookie: string; sid: string }> {
  const sid = await startSession((await database()).sql, { userId, ssoTenantId: tenantId, request: { ip: null, userAgent: "vitest" } });
  const value = await encode({ token: { sub: userId, sid }, secret: process.env.NEXTAUTH_SECRET! });
  return { cookie: `next-auth.session-token=${value}`, sid };
}

/**
 * A person with an account, in the tenant's verified domain, whom a directory giving everyone
 * `viewer` made a member (so it governs the membership).
 */
async function linkedMember() {
  const { tenant, admin } = await tenantWithMembers();
  const directory = await makeDirectory(tenant.id, { defaultRole: "viewer" });
  const person = await createUser({ email: `leaver-${randomUUID().slice(0, 8)}@${directory.domain}` });
  const directoryUser = await addDirectoryUser(directory, person.email);
  await reconcile(directory.id, [directoryUser.id]);
  expect(await membershipOf(tenant.id, person.email)).toBe("viewer");
  return { tenant, admin, person, directory, directoryUser };
}

describe("deactivating a directory user who is a console member", () => {
  test("ends the membership, revokes their tokens for the tenant (401 on /api/v1), ends their sessions of it", async () => {
    const { tenant, person, directory, directoryUser } = await linkedMember();
    const other = (await tenantWithMembers()).tenant;
    await (await db()).membership.create({ data: { tenantId: other.id, userId: person.id, role: "viewer" } });
    const tenantToken = await createToken(person.id, { tenantId: tenant.id });
    const otherToken = await createToken(person.id, { tenantId: other.id });
    const { cookie, sid } = await ssoSessionCookie(person.id, tenant.id);
    expect((await client(api.url, tenantToken).get(`/api/v1/tenants/${tenant.id}`)).status).toBe(200);
    expect((await (await consoleCaller(cookie)).account.me({})).user.email).toBe(person.email);

    await setActive(directoryUser.id, false);
    await reconcile(directory.id, [directoryUser.id]);

    expect(await membershipOf(tenant.id, person.email)).toBeNull();
    expect((await client(api.url, tenantToken).get(`/api/v1/tenants/${tenant.id}`)).status).toBe(401);
    expect(await codeOf((await consoleCaller(cookie)).account.me({}))).toBe("UNAUTHORIZED");
    const session = await (await db()).consoleSession.findUniqueOrThrow({ where: { id: sid } });
    expect(session).toMatchObject({ endedAt: expect.any(Date), endReason: "deprovisioned" });
    // Their place in another tenant is that tenant's business.
    expect((await client(api.url, otherToken).get(`/api/v1/tenants/${other.id}`)).status).toBe(200);
    expect(await membershipOf(other.id, person.email)).toBe("viewer");

    const stored = await (await db()).directoryUser.findUniqueOrThrow({ where: { id: directoryUser.id } });
    expect(stored).toMatchObject({ userId: person.id, role: null, deprovisionedAt: expect.any(Date) });
  });

  test("emits user.removed and api_token.revoked with the directory as actor", async () => {
    const { tenant, person, directory, directoryUser } = await linkedMember();
    await createToken(person.id, { tenantId: tenant.id });
    await setActive(directoryUser.id, false);
    await reconcile(directory.id, [directoryUser.id]);

    const [removed] = await eventsOf(tenant.id, "user.removed");
    expect(removed).toMatchObject({
      actorId: `directory:${directory.id}`,
      ipAddress: "192.0.2.7",
      targetId: person.id,
      details: expect.objectContaining({ email: person.email, reason: "deprovisioned", directory_id: directory.id }),
    });
    const [revoked] = await eventsOf(tenant.id, "api_token.revoked");
    expect(revoked).toMatchObject({ actorId: `directory:${directory.id}`, details: expect.objectContaining({ user_id: person.id }) });
  });

  test("never the tenant's last admin: the directory user is suspended, the membership stays", async () => {
    const { tenant } = await tenantWithMembers();
    const directory = await makeDirectory(tenant.id, { defaultRole: null, roleMappings: [{ group: "Admins", role: "admin" }] });
    const admin = await createUser({ email: `last-${randomUUID().slice(0, 8)}@${directory.domain}` });
    const prisma = await db();
    await prisma.membership.create({ data: { tenantId: tenant.id, userId: admin.id, role: "admin", directoryId: directory.id } });
    await prisma.membership.deleteMany({ where: { tenantId: tenant.id, userId: { not: admin.id } } });
    const directoryUser = await addDirectoryUser(directory, admin.email, { active: false });
    await reconcile(directory.id, [directoryUser.id]);
    expect(await membershipOf(tenant.id, admin.email)).toBe("admin");
    expect((await prisma.directoryUser.findUniqueOrThrow({ where: { id: directoryUser.id } })).deprovisionedAt).not.toBeNull();
    expect(await eventsOf(tenant.id, "directory_user.deprovision_refused")).toHaveLength(1);
  });

  test("an admin leaving and another demoted in one call: the leaver leaves, the other stays the last admin", async () => {
    const { tenant } = await tenantWithMembers();
    const directory = await makeDirectory(tenant.id, { defaultRole: "viewer", governsExisting: true });
    const [admin, second] = [
      await createUser({ email: `first-${randomUUID().slice(0, 8)}@${directory.domain}` }),
      await createUser({ email: `second-${randomUUID().slice(0, 8)}@${directory.domain}` }),
    ];
    const prisma = await db();
    await prisma.membership.createMany({ data: [admin, second].map((u) => ({ tenantId: tenant.id, userId: u.id, role: "admin" })) });
    await prisma.membership.deleteMany({ where: { tenantId: tenant.id, userId: { notIn: [admin.id, second.id] } } });
    const staying = await addDirectoryUser(directory, second.email);
    const leaving = await addDirectoryUser(directory, admin.email, { active: false });
    await reconcile(directory.id, [staying.id, leaving.id]);
    expect(await membershipOf(tenant.id, admin.email)).toBeNull();
    expect(await membershipOf(tenant.id, second.email)).toBe("admin");
  });

  test("a member who joined another way keeps the membership and their own tokens; loses what came through SSO", async () => {
    const { tenant } = await tenantWithMembers();
    const directory = await makeDirectory(tenant.id, { defaultRole: "viewer" });
    const person = await createUser({ email: `invited-${randomUUID().slice(0, 8)}@${directory.domain}` });
    await (await db()).membership.create({ data: { tenantId: tenant.id, userId: person.id, role: "viewer" } });
    const own = await createToken(person.id, { tenantId: tenant.id });
    const { sid } = await ssoSessionCookie(person.id, tenant.id);
    const directoryUser = await addDirectoryUser(directory, person.email, { active: false });
    await reconcile(directory.id, [directoryUser.id]);
    expect(await membershipOf(tenant.id, person.email)).toBe("viewer");
    expect((await client(api.url, own).get(`/api/v1/tenants/${tenant.id}`)).status).toBe(200);
    expect(await (await db()).consoleSession.findUniqueOrThrow({ where: { id: sid } })).toMatchObject({ endReason: "deprovisioned" });
  });

  test("a DELETE (deleting) deprovisions as deactivation does", async () => {
    const { tenant, person, directory, directoryUser } = await linkedMember();
    const token = await createToken(person.id, { tenantId: tenant.id });
    await reconcile(directory.id, [directoryUser.id], { deleting: true });
    expect(await membershipOf(tenant.id, person.email)).toBeNull();
    expect((await client(api.url, token).get(`/api/v1/tenants/${tenant.id}`)).status).toBe(401);
  });

  test("an active directory user elsewhere in the tenant keeps the person in", async () => {
    const { tenant, person, directory, directoryUser } = await linkedMember();
    const second = await makeDirectory(tenant.id, { defaultRole: "viewer" });
    const twin = await addDirectoryUser(second, person.email);
    await reconcile(second.id, [twin.id]);
    await setActive(directoryUser.id, false);
    await reconcile(directory.id, [directoryUser.id]);
    expect(await membershipOf(tenant.id, person.email)).toBe("viewer");
  });
});

describe("SSO sign-in of a deprovisioned person", () => {
  async function oidcTenant() {
    const { tenant, admin } = await tenantWithMembers();
    const domain = uniqueDomain();
    await oidcProvider(api.url, admin.token, tenant.id, world.op, { domains: [domain] });
    return { tenant, domain };
  }

  test("console: refused with reason deprovisioned (sso.login_failed); reactivation signs them in again, tokens stay revoked", async () => {
    const { tenant, domain } = await oidcTenant();
    const who = world.person(domain);
    const directory = await makeDirectory(tenant.id, { defaultRole: "viewer" });
    const directoryUser = await addDirectoryUser(directory, who.email);
    await reconcile(directory.id, [directoryUser.id]);

    const browser = new TestBrowser();
    expect(pathOf((await signIn(browser, api.url, world.op.origin, who.email)).location)).toBe(`/tenants/${tenant.id}`);
    const cookie = await sessionCookieOf(browser);
    const user = await (await db()).user.findUniqueOrThrow({ where: { email: who.email } });
    const token = await createToken(user.id, { tenantId: tenant.id });

    await setActive(directoryUser.id, false);
    await reconcile(directory.id, [directoryUser.id]);
    expect(await codeOf((await consoleCaller(cookie)).account.me({}))).toBe("UNAUTHORIZED");
    const refused = await signIn(new TestBrowser(), api.url, world.op.origin, who.email);
    expect(pathOf(refused.location)).toBe("/login?sso_error=deprovisioned");
    const [failed] = await eventsOf(tenant.id, "sso.login_failed");
    expect(failed?.details).toMatchObject({ reason: "deprovisioned", purpose: "console", email: who.email });
    expect(await membershipOf(tenant.id, who.email)).toBeNull();

    await setActive(directoryUser.id, true);
    await reconcile(directory.id, [directoryUser.id]);
    expect((await (await db()).directoryUser.findUniqueOrThrow({ where: { id: directoryUser.id } })).deprovisionedAt).toBeNull();
    expect(await membershipOf(tenant.id, who.email)).toBe("viewer");
    const again = new TestBrowser();
    expect(pathOf((await signIn(again, api.url, world.op.origin, who.email)).location)).toBe(`/tenants/${tenant.id}`);
    expect((await (await consoleCaller(await sessionCookieOf(again))).account.me({})).user.email).toBe(who.email);
    expect((await client(api.url, token).get(`/api/v1/tenants/${tenant.id}`)).status).toBe(401);
  });

  test("a deprovisioned directory user with no console account is refused too", async () => {
    const { tenant, domain } = await oidcTenant();
    const who = world.person(domain);
    const directory = await makeDirectory(tenant.id, { defaultRole: null });
    await addDirectoryUser(directory, who.email, { active: false });
    const refused = await signIn(new TestBrowser(), api.url, world.op.origin, who.email);
    expect(pathOf(refused.location)).toBe("/login?sso_error=deprovisioned");
    expect(await (await db()).user.findUnique({ where: { email: who.email } })).toBeNull();
  });
});

describe("the OAuth broker and a deprovisioned person", () => {
  test("their access token stops working at once, and a new broker sign-in is refused (access_denied, deprovisioned)", async () => {
    const directory = await makeDirectory(world.oidc.tenantId, { defaultRole: null });
    const { code, verifier, who } = await world.code();
    const directoryUser = await addDirectoryUser(directory, who.email);
    await reconcile(directory.id, [directoryUser.id]);
    const token = await exchange(api.url, world.app, code, verifier);
    expect(token.status).toBe(200);
    expect((await readProfile(api.url, token.json.access_token)).status).toBe(200);

    await setActive(directoryUser.id, false);
    await reconcile(directory.id, [directoryUser.id]);
    expect((await readProfile(api.url, token.json.access_token)).status).toBe(401);

    const flow = await world.flow({ login_hint: who.email });
    const params = returned(flow.back, world.app);
    expect(params.get("error")).toBe("access_denied");
    expect(params.get("error_description")).toMatch(/^deprovisioned: /);
    const failures = await eventsOf(world.oidc.tenantId, "sso.login_failed");
    expect(failures.at(-1)?.details).toMatchObject({ reason: "deprovisioned", purpose: "broker", email: who.email });
  });

  test("a code issued before deprovisioning cannot be exchanged after it", async () => {
    const directory = await makeDirectory(world.oidc.tenantId, { defaultRole: null });
    const who = world.person(world.oidc.domain);
    const directoryUser = await addDirectoryUser(directory, who.email);
    const flow = await world.flow({ login_hint: who.email });
    const code = returned(flow.back, world.app).get("code")!;
    await setActive(directoryUser.id, false);
    await reconcile(directory.id, [directoryUser.id]);
    const token = await exchange(api.url, world.app, code, flow.verifier);
    expect(token.status).toBe(400);
    expect(token.json.error).toBe("invalid_grant");
  });
});
