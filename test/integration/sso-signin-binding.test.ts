/**
 * Which browser may bring a pending sign-in back (issue 21, finding 10): the binding cookie of a
 * console sign-in, the admin's user of a Test sign-in and the console session of a step-up live in
 * distinct namespaces, so a hand-written `cp_sso_binding` cookie can never pose as a user or a
 * session binding. Against the real OpenID Provider, over real HTTP.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { decode } from "next-auth/jwt";
import { freePort, startApi, type TestApi } from "../support/api.ts";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";
import { startOidcOp, type TestOp } from "../support/oidc-op.ts";
import { TestBrowser } from "../support/browser.ts";
import { oidcProvider, pathOf, sessionCookieOf, signIn, uniqueDomain } from "../support/sso-signin.ts";
import { consoleCaller } from "../support/console-caller.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";

let api: TestApi;
let op: TestOp;
beforeAll(async () => {
  const port = await freePort();
  process.env.APP_URL = `http://127.0.0.1:${port}`;
  [api, op] = await Promise.all([startApi(port), startOidcOp()]);
});
afterEach(() => {
  op.loginAs = null;
});
afterAll(async () => {
  await metadataChecksIdle();
  await Promise.all([api.close(), op.close()]);
});

function person(domain: string) {
  const sub = `sub-${randomUUID().slice(0, 8)}`;
  const email = `${sub}@${domain}`;
  op.accounts.set(sub, { sub, email, email_verified: true, given_name: "Mallory", family_name: "Forger" });
  return { sub, email };
}

/** Walks `url` through the OP's login with this browser: the callback's answer. */
async function throughOp(browser: TestBrowser, url: string) {
  const { next } = await browser.follow(await browser.request(url), (u) => u.origin === op.origin);
  expect(next).toMatch(/\/api\/sso\/oidc\/.+\/callback\?/);
  return browser.request(next!);
}

describe("a forged binding cookie", () => {
  test("`user:<adminId>` does not take an admin's Test sign-in: its result stays the admin's to produce", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const domain = uniqueDomain();
    const { providerId } = await oidcProvider(api.url, admin.token, tenant.id, op, { domains: [domain] });
    const rest = client(api.url, admin.token);
    const started = await rest.post(`/api/v1/tenants/${tenant.id}/sso/${providerId}/test-signin`);
    expect(started.status).toBe(200);

    // The attacker holds the Test sign-in's URL (its state) and the admin's id, but no console session.
    op.loginAs = person(domain).sub;
    const attacker = new TestBrowser();
    attacker.setCookie("127.0.0.1", "cp_sso_binding", `user:${admin.user.id}`);
    const back = await throughOp(attacker, started.json.url);
    expect(pathOf(back.location)).toBe("/login?sso_error=state");

    const result = await rest.get(`/api/v1/tenants/${tenant.id}/sso/${providerId}/test-signin/${started.json.request_id}`);
    expect(result.json).toMatchObject({ status: "pending", profile: null });
    const row = await (await db()).ssoSignInRequest.findUniqueOrThrow({ where: { id: started.json.request_id } });
    expect(row.consumedAt).toBeNull();
  });

  test("`session:<sid>` does not take (and so void) another session's SSO step-up", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const domain = uniqueDomain();
    const { providerId } = await oidcProvider(api.url, admin.token, tenant.id, op, { domains: [domain], defaultRole: "admin" });
    const victim = person(domain);
    const browser = new TestBrowser();
    expect(pathOf((await signIn(browser, api.url, op.origin, victim.email)).location)).toBe(`/tenants/${tenant.id}`);
    const cookie = await sessionCookieOf(browser);
    const jwt = await decode({ token: cookie.split("=")[1], secret: process.env.NEXTAUTH_SECRET! });
    const { url } = await (await consoleCaller(cookie)).account.startSsoStepUp({});

    const attacker = new TestBrowser();
    attacker.setCookie("127.0.0.1", "cp_sso_binding", `session:${String(jwt!.sid)}`);
    const back = await throughOp(attacker, url);
    expect(pathOf(back.location)).toBe("/login?sso_error=state");
    const pending = await (await db()).ssoSignInRequest.findFirstOrThrow({ where: { providerId, purpose: "stepup" } });
    expect(pending.consumedAt).toBeNull();
  });
});
