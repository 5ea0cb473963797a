/**
 * Console sign-in through a SAML provider end to end, over real HTTP: "Continue with SSO" → our
 * AuthnRequest → the local SAML IdP (test/support/saml-idp.ts) → its signed Response posted to
 * our ACS → the spine's completion (user, membership, session, audit). Also Test sign-in, the
 * cross-site relay of the ACS, IdP-initiated sign-in, and refusals reaching the audit trail.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { apiServer } from "../support/api-server.ts";
import { client, db, tenantWithMembers, verifiedDomains } from "../support/fixtures.ts";
import { TestBrowser, type Hop } from "../support/browser.ts";
import { startSamlIdp, type PostedForm, type SamlIdp } from "../support/saml-idp.ts";
import { selfSignedCertificate } from "../support/x509.ts";
import { eventsOf, pathOf, sessionCookieOf, uniqueDomain } from "../support/sso-signin.ts";
import { consoleCaller, passwordSessionCookie } from "../support/console-caller.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";

const api = apiServer({ appUrl: true });
let idp: SamlIdp;
beforeAll(async () => {
  idp = await startSamlIdp();
});
afterAll(async () => {
  await metadataChecksIdle();
  await idp.close();
});

/** A SAML provider for the local IdP, created and checked over REST as an admin would. */
async function samlProvider(options: { allowIdpInitiated?: boolean } = {}) {
  const world = await tenantWithMembers();
  const domain = uniqueDomain();
  await verifiedDomains(world.tenant.id, [domain]);
  const admin = client(api.url, world.admin.token);
  const base = `/api/v1/tenants/${world.tenant.id}/sso`;
  const created = await admin.post(base, {
    provider_type: "saml",
    name: "Local SAML IdP",
    metadata_url: idp.metadataUrl,
    domains: [domain],
    ...(options.allowIdpInitiated ? { allow_idp_initiated: true } : {}),
  });
  expect(created.status).toBe(201);
  expect(created.json).toMatchObject({ protocol: "saml", sp: { acs_url: `${api.url}/api/sso/saml/${created.json.id}/acs` } });
  const refreshed = await admin.post(`${base}/${created.json.id}/refresh-metadata`);
  expect(refreshed.json.metadata.status).toBe("valid");
  return {
    tenant: world.tenant,
    adminUser: world.admin.user,
    domain,
    providerId: created.json.id as string,
    acsUrl: created.json.sp.acs_url as string,
    admin,
    base,
  };
}

/** "Continue with SSO" with this email up to the IdP's form (not yet posted to our ACS). */
async function toAcs(browser: TestBrowser, email: string): Promise<PostedForm> {
  idp.user.nameId = email;
  const start = await browser.request(`${api.url}/api/sso/signin`, { form: { email } });
  expect(start.status).toBe(303);
  expect(start.location).toMatch(new RegExp(`^${idp.ssoUrl}\\?SAMLRequest=`));
  return idp.login(start.location!);
}

const post = (browser: TestBrowser, form: PostedForm, headers?: Record<string, string>): Promise<Hop> =>
  browser.request(form.action, {
    form: { SAMLResponse: form.samlResponse, ...(form.relayState ? { RelayState: form.relayState } : {}) },
    headers,
  });

describe("console sign-in through SAML", () => {
  test("a new person is created as viewer and signed in to the provider's tenant only", async () => {
    const { tenant, providerId, acsUrl, domain } = await samlProvider();
    const email = `ada-${randomUUID().slice(0, 6)}@${domain}`;
    const browser = new TestBrowser();
    const form = await toAcs(browser, email);
    expect(form.action).toBe(acsUrl);

    const done = await post(browser, form);
    expect(await eventsOf(tenant.id, "sso.login_failed")).toEqual([]);
    expect(done.status).toBe(303);
    expect(pathOf(done.location)).toBe(`/tenants/${tenant.id}`);

    const user = await (await db()).user.findUniqueOrThrow({ where: { email }, include: { memberships: true } });
    expect(user).toMatchObject({ name: "Alice Liddell", passwordHash: null, platformRole: null });
    expect(user.memberships).toEqual([expect.objectContaining({ tenantId: tenant.id, role: "viewer" })]);
    const me = await (await consoleCaller(await sessionCookieOf(browser))).account.me({});
    expect(me.memberships).toEqual([{ tenant_id: tenant.id, tenant_name: tenant.name, role: "viewer" }]);
    const [login] = await eventsOf(tenant.id, "user.login");
    expect(login).toMatchObject({
      actorId: user.id,
      details: { method: "sso", provider_id: providerId, provider_type: "saml", protocol: "saml" },
    });
  });

  test("a cross-site POST to the ACS is relayed through a same-origin page, then completes", async () => {
    const { tenant, domain } = await samlProvider();
    const browser = new TestBrowser();
    const form = await toAcs(browser, `grace@${domain}`);
    const relay = await post(browser, form, { "sec-fetch-site": "cross-site" });
    expect(relay.status).toBe(200);
    expect(relay.headers.get("content-security-policy")).toMatch(/form-action 'self'/);
    expect(relay.text).toContain('name="relayed" value="1"');
    const done = await browser.request(form.action, {
      form: { SAMLResponse: form.samlResponse, RelayState: form.relayState!, relayed: "1" },
      headers: { "sec-fetch-site": "same-origin" },
    });
    expect(pathOf(done.location)).toBe(`/tenants/${tenant.id}`);
  });

  test("the same response posted twice: the second is refused (its request is used up) and audited", async () => {
    const { tenant, domain } = await samlProvider();
    const browser = new TestBrowser();
    const form = await toAcs(browser, `twice@${domain}`);
    expect((await post(browser, form)).status).toBe(303);
    const again = await post(browser, form);
    expect(pathOf(again.location)).toBe("/login?sso_error=unknown_request");
    const [failed] = await eventsOf(tenant.id, "sso.login_failed");
    expect(failed).toMatchObject({ details: { reason: "unknown_request" } });
    expect(JSON.stringify(failed!.details)).not.toContain(form.samlResponse.slice(0, 40));
  });

  test("a response started in another browser finds no request there (login CSRF) → unknown_request", async () => {
    const { tenant, domain } = await samlProvider();
    const form = await toAcs(new TestBrowser(), `victim@${domain}`);
    const done = await post(new TestBrowser(), form);
    expect(pathOf(done.location)).toBe("/login?sso_error=unknown_request");
    expect(await eventsOf(tenant.id, "user.login")).toEqual([]);
  });

  test("a refusal from the validator reaches the login page and the audit trail with its reason", async () => {
    const { tenant, domain } = await samlProvider();
    const browser = new TestBrowser();
    idp.user.nameId = `eve@${domain}`;
    const start = await browser.request(`${api.url}/api/sso/signin`, { form: { email: `eve@${domain}` } });
    const form = await idp.login(start.location!, { audience: "https://someone-else.example/saml" });
    const done = await post(browser, form);
    expect(pathOf(done.location)).toBe("/login?sso_error=audience");
    expect((await eventsOf(tenant.id, "sso.login_failed")).map((e) => (e.details as { reason: string }).reason)).toEqual(["audience"]);
  });
});

describe("IdP-initiated sign-in", () => {
  const unsolicited = (acsUrl: string, email: string) => {
    idp.user.nameId = email;
    const { samlResponse } = idp.issue({ audience: acsUrl.replace(/acs$/, "metadata"), acsUrl, inResponseTo: null });
    return { action: acsUrl, samlResponse, relayState: null } as PostedForm;
  };

  test("refused unless the provider allows it; then it signs the person in", async () => {
    const { tenant, acsUrl, domain, admin, base, providerId } = await samlProvider();
    const refused = await post(new TestBrowser(), unsolicited(acsUrl, `idp@${domain}`));
    expect(pathOf(refused.location)).toBe("/login?sso_error=idp_initiated");

    // Accepting unsolicited responses changes what is trusted: a step-up first.
    expect((await admin.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
    expect((await admin.patch(`${base}/${providerId}`, { allow_idp_initiated: true })).status).toBe(200);
    const browser = new TestBrowser();
    const done = await post(browser, unsolicited(acsUrl, `idp@${domain}`));
    expect(pathOf(done.location)).toBe(`/tenants/${tenant.id}`);
    expect(await sessionCookieOf(browser)).toMatch(/^next-auth\.session-token=/);
  });
});

describe("Test sign-in", () => {
  test("shows the SAML profile to the admin who started it, and creates nobody", async () => {
    const { tenant, adminUser, admin, base, providerId, domain } = await samlProvider();
    const started = await admin.post(`${base}/${providerId}/test-signin`);
    expect(started.status).toBe(200);
    expect(started.json.url).toMatch(new RegExp(`^${idp.ssoUrl}\\?SAMLRequest=`));

    // The admin's own browser (console session) goes through the IdP and back to our ACS.
    const browser = new TestBrowser();
    const [name, value] = (await passwordSessionCookie(adminUser.id)).split("=");
    browser.setCookie("127.0.0.1", name!, value!);
    idp.user.nameId = `tester@${domain}`;
    const back = await post(browser, await idp.login(started.json.url));
    expect(back.location).toBe(started.json.result_url);
    expect(back.headers.getSetCookie().some((c) => c.startsWith("next-auth.session-token="))).toBe(false);

    const result = await admin.get(`${base}/${providerId}/test-signin/${started.json.request_id}`);
    expect(result.json).toMatchObject({
      status: "succeeded",
      domain_matches: true,
      reason: null,
      profile: {
        id: `tester@${domain}`,
        email: `tester@${domain}`,
        first_name: "Alice",
        last_name: "Liddell",
        groups: ["engineering", "admins"],
        idp_id: `tester@${domain}`,
        issuer: idp.entityId,
      },
    });
    expect(result.json.profile.raw_attributes).toMatchObject({
      "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname": "Alice",
    });
    expect(await (await db()).user.count({ where: { email: `tester@${domain}` } })).toBe(0);
    expect(await eventsOf(tenant.id, "user.login")).toEqual([]);
  });

  test("a refused response shows its exact reason", async () => {
    const { adminUser, admin, base, providerId, domain } = await samlProvider();
    const started = await admin.post(`${base}/${providerId}/test-signin`);
    const browser = new TestBrowser();
    const [name, value] = (await passwordSessionCookie(adminUser.id)).split("=");
    browser.setCookie("127.0.0.1", name!, value!);
    idp.user.nameId = `tester@${domain}`;
    await post(browser, await idp.login(started.json.url, { key: selfSignedCertificate("Not the IdP") }));
    const result = await admin.get(`${base}/${providerId}/test-signin/${started.json.request_id}`);
    expect(result.json).toMatchObject({ status: "failed", reason: "certificate", profile: null });
    expect(result.json.detail).toMatch(/Not the IdP.*does not list/);
  });
});
