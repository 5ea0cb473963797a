/**
 * Console sign-in through OIDC providers, against a real OpenID Provider (oidc-provider) on
 * loopback, over real HTTP: generic OIDC, Google Workspace and Entra ID (its {tenantid} issuer
 * template), first sign-in, known members, and the account-takeover rule.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, db, tenantWithMembers } from "../support/fixtures.ts";
import { startOidcOp, type TestOp } from "../support/oidc-op.ts";
import { TestBrowser } from "../support/browser.ts";
import { eventsOf, oidcProvider, pathOf, sessionCookieOf, signIn, uniqueDomain } from "../support/sso-signin.ts";
import { consoleCaller, passwordSessionCookie } from "../support/console-caller.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";

const api = apiServer({ appUrl: true });
let op: TestOp;
let google: TestOp;
let entra: TestOp;
const ENTRA_TENANT = randomUUID();

beforeAll(async () => {
  [op, google, entra] = await Promise.all([
    startOidcOp(),
    startOidcOp({ idTokenClaims: true }),
    startOidcOp({ mount: `/${ENTRA_TENANT}/v2.0`, idTokenClaims: true }),
  ]);
});
afterAll(async () => {
  await metadataChecksIdle();
  await Promise.all([op.close(), google.close(), entra.close()]);
});

function person(
  o: TestOp,
  domain: string,
  extra: Partial<{ given_name: string; family_name: string; groups: string[]; tid: string }> = {},
) {
  const sub = `sub-${randomUUID().slice(0, 8)}`;
  const email = `${sub}@${domain}`;
  o.accounts.set(sub, { sub, email, email_verified: true, given_name: "Ada", family_name: "Lovelace", groups: ["engineering"], ...extra });
  return { sub, email };
}

describe("the OP's signing keys", () => {
  test("are fetched once and reused by later callbacks, not fetched per sign-in", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const domain = uniqueDomain();
    await oidcProvider(api.url, admin.token, tenant.id, op, { domains: [domain] });
    expect(pathOf((await signIn(new TestBrowser(), api.url, op.origin, person(op, domain).email)).location)).toBe(`/tenants/${tenant.id}`);
    const before = op.jwksFetches;
    for (let i = 0; i < 3; i++) {
      expect(pathOf((await signIn(new TestBrowser(), api.url, op.origin, person(op, domain).email)).location)).toBe(
        `/tenants/${tenant.id}`,
      );
    }
    expect(op.jwksFetches).toBe(before);
  });
});

describe("first sign-in through an OIDC provider", () => {
  test.each([
    ["oidc", () => op, () => op.discoveryUrl, {}],
    ["google_workspace", () => google, () => google.discoveryUrl, {}],
    ["azure_ad", () => entra, () => entra.templateDiscoveryUrl, { tid: ENTRA_TENANT }],
  ] as const)(
    "%s: a new person is created as the provider's default role and signed in to that tenant only",
    async (type, opOf, urlOf, extra) => {
      const o = opOf();
      const { tenant, admin } = await tenantWithMembers();
      const domain = uniqueDomain();
      const { providerId } = await oidcProvider(api.url, admin.token, tenant.id, o, { type, metadataUrl: urlOf(), domains: [domain] });
      const newcomer = person(o, domain, extra);

      const browser = new TestBrowser();
      const done = await signIn(browser, api.url, o.origin, newcomer.email);
      expect(done.status).toBe(303);
      expect(await eventsOf(tenant.id, "sso.login_failed")).toEqual([]);
      expect(pathOf(done.location)).toBe(`/tenants/${tenant.id}`);
      const cookie = await sessionCookieOf(browser);

      const user = await (await db()).user.findUniqueOrThrow({ where: { email: newcomer.email }, include: { memberships: true } });
      expect(user).toMatchObject({ name: "Ada Lovelace", passwordHash: null, platformRole: null });
      expect(user.memberships).toEqual([expect.objectContaining({ tenantId: tenant.id, role: "viewer" })]);

      const me = await (await consoleCaller(cookie)).account.me({});
      expect(me.memberships).toEqual([{ tenant_id: tenant.id, tenant_name: tenant.name, role: "viewer" }]);

      const [login] = await eventsOf(tenant.id, "user.login");
      expect(login).toMatchObject({
        actorId: user.id,
        details: { method: "sso", provider_id: providerId, provider_type: type, protocol: "oidc" },
      });
      const [created] = await eventsOf(tenant.id, "user.created");
      expect(created).toMatchObject({
        targetId: user.id,
        details: { email: newcomer.email, role: "viewer", method: "sso", provider_id: providerId },
      });
      expect(await eventsOf(tenant.id, "sso.login_failed")).toEqual([]);
    },
  );

  test("the provider's default_role applies to newcomers; a known member keeps their role; a known user who is not a member joins", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const domain = uniqueDomain();
    await oidcProvider(api.url, admin.token, tenant.id, op, { domains: [domain], defaultRole: "admin" });
    const prisma = await db();

    const newcomer = person(op, domain);
    expect(pathOf((await signIn(new TestBrowser(), api.url, op.origin, newcomer.email)).location)).toBe(`/tenants/${tenant.id}`);
    const joined = await prisma.user.findUniqueOrThrow({ where: { email: newcomer.email }, include: { memberships: true } });
    expect(joined.memberships.map((m) => m.role)).toEqual(["admin"]);

    const member = person(op, domain);
    const memberUser = await prisma.user.create({ data: { email: member.email } });
    await prisma.membership.create({ data: { tenantId: tenant.id, userId: memberUser.id, role: "viewer" } });
    await signIn(new TestBrowser(), api.url, op.origin, member.email);
    expect(
      (await prisma.membership.findUniqueOrThrow({ where: { tenantId_userId: { tenantId: tenant.id, userId: memberUser.id } } })).role,
    ).toBe("viewer");

    // Signing in twice creates nothing more.
    await signIn(new TestBrowser(), api.url, op.origin, newcomer.email);
    expect(await prisma.user.count({ where: { email: newcomer.email } })).toBe(1);
    expect((await eventsOf(tenant.id, "user.created")).length).toBe(1);
    expect((await eventsOf(tenant.id, "user.login")).length).toBe(3);
  });
});

describe("the account-takeover rule: a session through tenant B's provider reaches B only", () => {
  test("an admin of tenant A (and a platform operator) signs in through B's provider: no access to A, no platform role, over the console and REST", async () => {
    const a = await tenantWithMembers();
    const b = await tenantWithMembers();
    const domain = uniqueDomain();
    const prisma = await db();
    // The victim: admin of A, operator of the platform, with an address in B's SSO domain.
    const victim = person(op, domain);
    const user = await prisma.user.create({ data: { email: victim.email, platformRole: "operator" } });
    await prisma.membership.create({ data: { tenantId: a.tenant.id, userId: user.id, role: "admin" } });
    await oidcProvider(api.url, b.admin.token, b.tenant.id, op, { domains: [domain] });

    const browser = new TestBrowser();
    const done = await signIn(browser, api.url, op.origin, victim.email);
    expect(pathOf(done.location)).toBe(`/tenants/${b.tenant.id}`);
    const console = await consoleCaller(await sessionCookieOf(browser));

    // Console: B only, as viewer; A is as if it did not exist; no operator powers.
    const me = await console.account.me({});
    expect(me.user.platform_role).toBeNull();
    expect(me.memberships.map((m) => m.tenant_id)).toEqual([b.tenant.id]);
    const tenants = await console.tenants.list({});
    expect(tenants.results.map((t) => t.id)).toEqual([b.tenant.id]);
    await expect(console.tenants.get({ tenant_id: a.tenant.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(console.members.list({ tenant_id: a.tenant.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(console.tenants.create({ name: "Mine now" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await console.tenants.get({ tenant_id: b.tenant.id })).id).toBe(b.tenant.id);

    // REST through a token minted in that session: the same restriction travels with it.
    await expect(console.tokens.create({ name: "escape", tenant_id: a.tenant.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(console.tokens.create({ name: "unscoped" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const minted = await console.tokens.create({ name: "b-only", tenant_id: b.tenant.id });
    const rest = client(api.url, minted.token);
    expect((await rest.get(`/api/v1/tenants/${a.tenant.id}`)).status).toBe(404);
    expect((await rest.get(`/api/v1/tenants/${a.tenant.id}/sso`)).status).toBe(404);
    expect((await rest.get(`/api/v1/tenants/${a.tenant.id}/members`)).status).toBe(404);
    expect((await rest.post("/api/v1/tenants", { name: "x" })).status).toBe(403);
    expect((await rest.get("/api/v1/me")).json.user.platform_role).toBeNull();
    expect((await rest.get(`/api/v1/tenants/${b.tenant.id}`)).status).toBe(200);

    // Their own password-era tokens are not visible or revocable from the SSO session.
    const own = await createToken(user.id);
    const ownId = (await prisma.apiToken.findFirstOrThrow({ where: { userId: user.id, ssoTenantId: null } })).id;
    expect((await console.tokens.list({})).results.map((t) => t.id)).toEqual([minted.id]);
    await expect(console.tokens.revoke({ token_id: ownId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    // ...and the user's own operator token still works as before (the rule narrows sessions, not users).
    expect((await client(api.url, own).get(`/api/v1/tenants/${a.tenant.id}`)).status).toBe(200);

    // The membership in B is new and a viewer's; A's membership is untouched.
    expect(await prisma.membership.findMany({ where: { userId: user.id }, orderBy: { role: "asc" } })).toEqual([
      expect.objectContaining({ tenantId: a.tenant.id, role: "admin" }),
      expect.objectContaining({ tenantId: b.tenant.id, role: "viewer" }),
    ]);
  });
});

describe("Test sign-in (admins)", () => {
  test("shows the profile received; creates no user and no session; works on a disabled provider", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const domain = uniqueDomain();
    const { providerId } = await oidcProvider(api.url, admin.token, tenant.id, op, { domains: [domain], enabled: false });
    const tester = person(op, domain, { groups: ["admins", "staff"] });
    op.loginAs = tester.sub;
    try {
      const rest = client(api.url, admin.token);
      const started = await rest.post(`/api/v1/tenants/${tenant.id}/sso/${providerId}/test-signin`);
      expect(started.status).toBe(200);
      expect(new URL(started.json.url).origin).toBe(op.origin);

      // The admin's own browser (console session) goes through the IdP and back.
      const browser = new TestBrowser();
      const [name, value] = (await passwordSessionCookie(admin.user.id)).split("=");
      browser.setCookie("127.0.0.1", name!, value!);
      const { next } = await browser.follow(await browser.request(started.json.url), (url) => url.origin === op.origin);
      const back = await browser.request(next!);
      expect(back.location).toBe(started.json.result_url);
      expect(back.headers.getSetCookie().some((c) => c.startsWith("next-auth.session-token="))).toBe(false);

      const result = await rest.get(`/api/v1/tenants/${tenant.id}/sso/${providerId}/test-signin/${started.json.request_id}`);
      expect(result.json).toMatchObject({
        status: "succeeded",
        domain_matches: true,
        reason: null,
        profile: {
          id: tester.sub,
          email: tester.email,
          first_name: "Ada",
          last_name: "Lovelace",
          groups: ["admins", "staff"],
          idp_id: tester.sub,
          issuer: op.issuer,
        },
      });
      expect(result.json.profile.raw_attributes).toMatchObject({ sub: tester.sub, email: tester.email });
      expect(await (await db()).user.count({ where: { email: tester.email } })).toBe(0);
      expect(await eventsOf(tenant.id, "user.login")).toEqual([]);
    } finally {
      op.loginAs = null;
    }
  });

  test("a failure shows its exact reason; only admins may start one, only the admin who started it may read it", async () => {
    const { tenant, admin, viewer } = await tenantWithMembers();
    const other = await tenantWithMembers();
    const res = await client(api.url, admin.token).post(`/api/v1/tenants/${tenant.id}/sso`, {
      provider_type: "oidc",
      name: "Broken",
      metadata_url: `${op.origin}/nowhere/.well-known/openid-configuration`,
      client_id: "x",
    });
    const base = `/api/v1/tenants/${tenant.id}/sso/${res.json.id}/test-signin`;
    const started = await client(api.url, admin.token).post(base);
    expect(started.json.url).toBe(started.json.result_url);
    const result = await client(api.url, admin.token).get(`${base}/${started.json.request_id}`);
    expect(result.json).toMatchObject({ status: "failed", reason: "metadata", profile: null });
    expect(result.json.detail).toContain("discovery document");

    expect((await client(api.url, viewer.token).post(base)).status).toBe(403);
    expect((await client(api.url, other.admin.token).post(base)).status).toBe(404);
    const prisma = await db();
    const another = await prisma.user.create({ data: { email: `admin2-${randomUUID().slice(0, 8)}@example.com` } });
    await prisma.membership.create({ data: { tenantId: tenant.id, userId: another.id, role: "admin" } });
    const secondAdmin = await createToken(another.id);
    expect((await client(api.url, secondAdmin).get(`${base}/${started.json.request_id}`)).status).toBe(404);
  });
});
