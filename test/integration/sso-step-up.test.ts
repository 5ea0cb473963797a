/**
 * Step-up through SSO for console sessions signed in through a provider (SSO-only users have no
 * password), against a real OpenID Provider (oidc-provider) and the local SAML IdP, over real HTTP:
 * re-authentication is forced at the IdP, the same person must come back, and the session is then
 * fresh for ten minutes exactly as after a password step-up (`user.step_up` method "sso").
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { importJWK, SignJWT, type JWK } from "jose";
import { apiServer } from "../support/api-server.ts";
import { client, db, tenantWithMembers, verifiedDomains } from "../support/fixtures.ts";
import { startOidcOp, type TestOp } from "../support/oidc-op.ts";
import { startSamlIdp, type SamlIdp } from "../support/saml-idp.ts";
import { TestBrowser } from "../support/browser.ts";
import { eventsOf, oidcProvider, pathOf, sessionCookieOf, signIn, uniqueDomain } from "../support/sso-signin.ts";
import { consoleCaller, passwordSessionCookie } from "../support/console-caller.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";
import { clock } from "../../server/clock.ts";

const api = apiServer({ appUrl: true });
let op: TestOp;
let idp: SamlIdp;
beforeAll(async () => {
  [op, idp] = await Promise.all([startOidcOp(), startSamlIdp()]);
});
afterAll(async () => {
  await metadataChecksIdle();
  await Promise.all([op.close(), idp.close()]);
});
const realNow = clock.now;
afterEach(() => {
  clock.now = realNow;
  op.loginAs = null;
});

function person(domain: string) {
  const sub = `sub-${randomUUID().slice(0, 8)}`;
  const email = `${sub}@${domain}`;
  op.accounts.set(sub, { sub, email, email_verified: true, given_name: "Ada", family_name: "Lovelace" });
  return { sub, email };
}

/** A tenant with an OIDC provider, and an SSO-only person signed in to the console through it. */
async function oidcSession() {
  const { tenant, admin } = await tenantWithMembers();
  const domain = uniqueDomain();
  const { providerId } = await oidcProvider(api.url, admin.token, tenant.id, op, { domains: [domain], defaultRole: "admin" });
  const who = person(domain);
  const browser = new TestBrowser();
  expect(pathOf((await signIn(browser, api.url, op.origin, who.email)).location)).toBe(`/tenants/${tenant.id}`);
  const cookie = await sessionCookieOf(browser);
  const user = await (await db()).user.findUniqueOrThrow({ where: { email: who.email } });
  return { tenant, admin, domain, providerId, who, browser, cookie, user };
}

/** Starts the step-up in the console and walks the OP's login: the callback's answer. */
async function stepUpThroughOp(browser: TestBrowser, cookie: string) {
  const { url } = await (await consoleCaller(cookie)).account.startSsoStepUp({});
  const authorize = new URL(url);
  const start = await browser.request(url);
  const { next } = await browser.follow(start, (u) => u.origin === op.origin);
  return { authorize, done: next ? await browser.request(next) : start };
}

const stepUpEvents = async (tenantId: string) => eventsOf(tenantId, "user.step_up");

describe("SSO step-up through OIDC", () => {
  test("an SSO-only user is offered their provider, re-authenticates (prompt=login, max_age=0) and is fresh for ten minutes", async () => {
    const { tenant, providerId, browser, cookie, user } = await oidcSession();
    const caller = await consoleCaller(cookie);
    expect(await caller.account.stepUpMethods({})).toEqual({
      password: false,
      totp: false,
      recovery_codes: 0,
      sso: { provider_id: providerId, name: expect.any(String) },
    });
    expect((await caller.account.me({})).step_up_expires_at).toBeNull();

    const { authorize, done } = await stepUpThroughOp(browser, cookie);
    expect(authorize.origin).toBe(op.origin);
    expect(authorize.searchParams.get("prompt")).toBe("login");
    expect(authorize.searchParams.get("max_age")).toBe("0");
    expect(done.status).toBe(303);
    expect(pathOf(done.location)).toBe("/auth/popup-done?for=stepup");
    // The session is the same one (no new cookie), now stepped up.
    expect(done.headers.getSetCookie().some((c) => c.startsWith("next-auth.session-token="))).toBe(false);
    expect(await eventsOf(tenant.id, "sso.login_failed")).toEqual([]);

    const expires = (await caller.account.me({})).step_up_expires_at;
    expect(expires).not.toBeNull();
    expect(Date.parse(expires!) - Date.now()).toBeGreaterThan(9.9 * 60_000);
    const [event] = await stepUpEvents(tenant.id);
    expect(event).toMatchObject({ actorId: user.id, details: { via: "session", method: "sso", provider_id: providerId } });

    // Step-up actions pass now (disabling the provider needs one), and not after ten minutes.
    clock.now = () => new Date(Date.parse(expires!) + 1000);
    expect((await caller.account.me({})).step_up_expires_at).toBeNull();
    await expect(caller.tenantSso.update({ tenant_id: tenant.id, provider_id: providerId, enabled: false })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
    clock.now = realNow;
    const updated = await caller.tenantSso.update({ tenant_id: tenant.id, provider_id: providerId, enabled: false });
    expect(updated.enabled).toBe(false);
  });

  test("a different person signing in at the IdP is refused, audited, and steps up nothing", async () => {
    const { tenant, domain, browser, cookie } = await oidcSession();
    const someoneElse = person(domain);
    op.loginAs = someoneElse.sub;
    // Someone else at the same computer signs in at the IdP (which would otherwise first log the person out).
    browser.forget("127.0.0.1", "_session");
    const { done } = await stepUpThroughOp(browser, cookie);
    expect(pathOf(done.location)).toBe("/auth/popup-done?for=stepup&error=different_user");
    expect((await (await consoleCaller(cookie)).account.me({})).step_up_expires_at).toBeNull();
    expect(await stepUpEvents(tenant.id)).toEqual([]);
    const [failed] = await eventsOf(tenant.id, "sso.login_failed");
    expect(failed).toMatchObject({ details: { reason: "different_user", purpose: "stepup", email: someoneElse.email } });
  });

  test("the step-up belongs to the session that asked: another session of the same user finds no request", async () => {
    const { tenant, cookie, who } = await oidcSession();
    const other = new TestBrowser();
    await signIn(other, api.url, op.origin, who.email);
    const { url } = await (await consoleCaller(cookie)).account.startSsoStepUp({});
    // The IdP round trip runs in the other browser (other session): the callback is refused.
    const { next } = await other.follow(await other.request(url), (u) => u.origin === op.origin);
    const done = await other.request(next!);
    expect(pathOf(done.location)).toBe("/login?sso_error=state");
    expect(await stepUpEvents(tenant.id)).toEqual([]);
    expect((await (await consoleCaller(await sessionCookieOf(other))).account.me({})).step_up_expires_at).toBeNull();
    expect((await (await consoleCaller(cookie)).account.me({})).step_up_expires_at).toBeNull();
  });
});

describe("at Google", () => {
  test("the step-up asks max_age=0 without prompt=login (Google rejects that prompt value)", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const domain = uniqueDomain();
    await oidcProvider(api.url, admin.token, tenant.id, op, { type: "google_workspace", domains: [domain] });
    const who = person(domain);
    const browser = new TestBrowser();
    expect(pathOf((await signIn(browser, api.url, op.origin, who.email)).location)).toBe(`/tenants/${tenant.id}`);
    const { url } = await (await consoleCaller(await sessionCookieOf(browser))).account.startSsoStepUp({});
    const authorize = new URL(url);
    expect(authorize.searchParams.get("max_age")).toBe("0");
    expect(authorize.searchParams.has("prompt")).toBe(false);
    expect(authorize.searchParams.get("login_hint")).toBe(who.email);
  });
});

describe("an IdP that does not re-authenticate", () => {
  test("an id_token without auth_time, or with one before the step-up began, is refused (not_reauthenticated); a fresh one passes", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const domain = uniqueDomain();
    const { providerId, clientId } = await oidcProvider(api.url, admin.token, tenant.id, op, {
      domains: [domain],
      metadataUrl: op.rogueDiscoveryUrl,
    });
    const who = person(domain);
    const key = await importJWK(op.signingKey as JWK, "RS256");
    let authTime: number | undefined = undefined;
    // The OP's own login and code, then a token endpoint the test controls: it says when the person authenticated.
    op.rogueToken = async () => {
      const pending = await (await db()).ssoSignInRequest.findFirstOrThrow({ where: { providerId }, orderBy: { createdAt: "desc" } });
      const now = Math.floor(Date.now() / 1000);
      const claims = { iss: op.issuer, aud: clientId, sub: who.sub, email: who.email, email_verified: true, nonce: pending.nonce };
      const idToken = await new SignJWT({ ...claims, iat: now, exp: now + 300, ...(authTime === undefined ? {} : { auth_time: authTime }) })
        .setProtectedHeader({ alg: "RS256", kid: op.signingKey.kid })
        .sign(key);
      return { access_token: randomUUID(), token_type: "Bearer", expires_in: 300, id_token: idToken };
    };
    try {
      const browser = new TestBrowser();
      expect(pathOf((await signIn(browser, api.url, op.origin, who.email)).location)).toBe(`/tenants/${tenant.id}`);
      const cookie = await sessionCookieOf(browser);
      // max_age=0 was asked, so the ID token must say when the person signed in (OIDC Core 3.1.2.1).
      const silent = await stepUpThroughOp(browser, cookie);
      expect(pathOf(silent.done.location)).toBe("/auth/popup-done?for=stepup&error=not_reauthenticated");

      authTime = Math.floor(Date.now() / 1000) - 3600;
      const stale = await stepUpThroughOp(browser, cookie);
      expect(pathOf(stale.done.location)).toBe("/auth/popup-done?for=stepup&error=not_reauthenticated");
      expect((await (await consoleCaller(cookie)).account.me({})).step_up_expires_at).toBeNull();

      authTime = Math.floor(Date.now() / 1000);
      const fresh = await stepUpThroughOp(browser, cookie);
      expect(pathOf(fresh.done.location)).toBe("/auth/popup-done?for=stepup");
      expect((await (await consoleCaller(cookie)).account.me({})).step_up_expires_at).not.toBeNull();
    } finally {
      op.rogueToken = null;
    }
  });
});

describe("signing in again with SSO (the sign-in-again dialog's popup)", () => {
  test("the sign-in lands on the popup page with a new session for the same person", async () => {
    const { tenant, who, user } = await oidcSession();
    const browser = new TestBrowser();
    const start = await browser.request(`${api.url}/api/sso/signin`, {
      form: { email: who.email, callbackUrl: "/auth/popup-done?for=signin" },
    });
    const { next } = await browser.follow(start, (u) => u.origin === op.origin);
    const done = await browser.request(next!);
    expect(pathOf(done.location)).toBe("/auth/popup-done?for=signin");
    const me = await (await consoleCaller(await sessionCookieOf(browser))).account.me({});
    expect(me.user.id).toBe(user.id);
    expect(me.memberships.map((m) => m.tenant_id)).toEqual([tenant.id]);
  });
});

describe("who may step up through SSO", () => {
  test("a password user cannot step up through an SSO provider (another tenant's, or any): 403, nothing stored", async () => {
    const { providerId } = await oidcSession();
    const { admin } = await tenantWithMembers();
    const cookie = await passwordSessionCookie(admin.user.id);
    const caller = await consoleCaller(cookie);
    expect(await caller.account.stepUpMethods({})).toEqual({ password: true, totp: false, recovery_codes: 0, sso: null });
    const before = await (await db()).ssoSignInRequest.count({ where: { providerId } });
    await expect(caller.account.startSsoStepUp({ provider_id: providerId })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(caller.account.startSsoStepUp({})).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await (await db()).ssoSignInRequest.count({ where: { providerId } })).toBe(before);
  });

  test("an SSO session cannot name another provider than its own", async () => {
    const first = await oidcSession();
    const second = await oidcSession();
    await expect((await consoleCaller(first.cookie)).account.startSsoStepUp({ provider_id: second.providerId })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });

  test("API tokens keep password step-up, recorded as method password", async () => {
    const { admin } = await tenantWithMembers();
    const res = await client(api.url, admin.token).post("/api/v1/auth/step-up", { password: "admin-password" });
    expect(res.status).toBe(200);
    const [event] = await (
      await db()
    ).auditEvent.findMany({
      where: { actorId: admin.user.id, eventType: "user.step_up" },
      orderBy: { sequence: "desc" },
      take: 1,
    });
    expect(event?.details).toMatchObject({ via: "token", method: "password" });
  });
});

describe("SSO step-up through SAML", () => {
  test("ForceAuthn is asked; the same person steps up; someone else is refused", async () => {
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
    });
    expect(created.status).toBe(201);
    expect((await admin.post(`${base}/${created.json.id}/refresh-metadata`)).json.metadata.status).toBe("valid");
    const providerId = created.json.id as string;

    const email = `ada-${randomUUID().slice(0, 6)}@${domain}`;
    const browser = new TestBrowser();
    idp.user.nameId = email;
    const start = await browser.request(`${api.url}/api/sso/signin`, { form: { email } });
    const signInForm = await idp.login(start.location!);
    expect(signInForm.request.forceAuthn).toBe(false);
    const post = (form: { action: string; samlResponse: string; relayState: string | null }) =>
      browser.request(form.action, {
        form: { SAMLResponse: form.samlResponse, ...(form.relayState ? { RelayState: form.relayState } : {}) },
      });
    expect(pathOf((await post(signInForm)).location)).toBe(`/tenants/${world.tenant.id}`);
    const cookie = await sessionCookieOf(browser);
    const caller = await consoleCaller(cookie);

    // Someone else at the IdP: refused.
    idp.user.nameId = `mallory@${domain}`;
    const refused = await post(await idp.login((await caller.account.startSsoStepUp({})).url));
    expect(pathOf(refused.location)).toBe("/auth/popup-done?for=stepup&error=different_user");
    expect((await caller.account.me({})).step_up_expires_at).toBeNull();

    // The same person, re-authenticated: fresh.
    idp.user.nameId = email;
    const form = await idp.login((await caller.account.startSsoStepUp({})).url);
    expect(form.request.forceAuthn).toBe(true);
    expect(pathOf((await post(form)).location)).toBe("/auth/popup-done?for=stepup");
    expect((await caller.account.me({})).step_up_expires_at).not.toBeNull();
    const [event] = await stepUpEvents(world.tenant.id);
    expect(event).toMatchObject({ details: { method: "sso", provider_id: providerId } });
    expect((await eventsOf(world.tenant.id, "sso.login_failed")).map((e) => (e.details as { reason: string }).reason)).toEqual([
      "different_user",
    ]);
  });
});
