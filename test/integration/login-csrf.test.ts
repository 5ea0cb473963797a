/**
 * A page on another site cannot make a visitor's browser act with its cookies: the "Continue with
 * SSO" form post (login CSRF: signing the visitor into an attacker's tenant) and every other
 * state-changing route are refused where the request enters when the Origin is another site's, or
 * the browser says the request is cross-site. The SAML ACS, which IdPs post to from their own
 * page, is the one route that takes them. Issue 21, finding 11.
 *
 * The sign-in entries (/api/sso/signin, next-auth's /api/auth/*) refuse them from a browser that
 * holds no cookie for the site too: a first visit is exactly when a forged sign-in goes unnoticed.
 * Issue 38.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { db, operator, tenantWithMembers } from "../support/fixtures.ts";
import { startOidcOp, type TestOp } from "../support/oidc-op.ts";
import { oidcProvider, uniqueDomain } from "../support/sso-signin.ts";

const api = apiServer({ appUrl: true });
let op: TestOp;
beforeAll(async () => {
  op = await startOidcOp();
});
afterAll(async () => {
  await op.close();
});
const EVIL = "https://attacker.example";
const form = (email: string) => new URLSearchParams({ email, callbackUrl: "/" });

async function post(path: string, headers: Record<string, string>, body: BodyInit = form("someone@victim.example")) {
  const contentType = body instanceof URLSearchParams ? "application/x-www-form-urlencoded" : "application/json";
  return fetch(`${api.url}${path}`, { method: "POST", headers: { "content-type": contentType, ...headers }, body, redirect: "manual" });
}

test("Continue with SSO posted from another site, with the visitor's cookies, is refused before it starts anything", async () => {
  const before = await (await db()).ssoSignInRequest.count();
  const attempts: Record<string, string>[] = [
    { cookie: "cp_sso_binding=x", origin: EVIL },
    { cookie: "next-auth.session-token=x", origin: "null" },
    { cookie: "cp_sso_binding=x", "sec-fetch-site": "cross-site" },
  ];
  for (const headers of attempts) {
    const res = await post("/api/sso/signin", headers);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe("forbidden");
  }
  expect(await (await db()).ssoSignInRequest.count()).toBe(before);
});

test("the same post from the app's own page goes on (303 to the IdP or back to the login page)", async () => {
  const res = await post("/api/sso/signin", { cookie: "cp_sso_binding=x", origin: api.url, "sec-fetch-site": "same-origin" });
  expect(res.status).toBe(303);
});

/** A tenant whose OIDC provider routes `domain`: "Continue with SSO" for it starts a sign-in at the OP. */
async function ssoDomain(): Promise<string> {
  const domain = uniqueDomain();
  const { tenant } = await tenantWithMembers();
  const { token } = await operator();
  await oidcProvider(api.url, token, tenant.id, op, { domains: [domain] });
  return domain;
}

test("Continue with SSO posted from another site by a browser with no cookie for ours is refused: no sign-in starts", async () => {
  const email = `someone@${await ssoDomain()}`;
  const before = await (await db()).ssoSignInRequest.count();
  // What browsers send on a form post from another site's page (Origin, Sec-Fetch-Site or both),
  // a sibling subdomain's page (same-site), and sandboxed frames or data: URLs (Origin null).
  const attempts: Record<string, string>[] = [
    { origin: EVIL },
    { "sec-fetch-site": "cross-site" },
    { origin: EVIL, "sec-fetch-site": "cross-site" },
    { origin: "https://sub.127.0.0.1.example", "sec-fetch-site": "same-site" },
    { "sec-fetch-site": "same-site" },
    { origin: "null" },
  ];
  for (const headers of attempts) {
    const res = await post("/api/sso/signin", headers, form(email));
    expect(res.status, JSON.stringify(headers)).toBe(403);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await res.json()).toMatchObject({ status: 403, code: "forbidden" });
  }
  expect(await (await db()).ssoSignInRequest.count()).toBe(before);

  // The same form on our own page, cookies or not, goes to the IdP with its binding cookie.
  const ours: Record<string, string>[] = [
    { origin: api.url, "sec-fetch-site": "same-origin" },
    { origin: api.url },
    { "sec-fetch-site": "same-origin" },
  ];
  for (const headers of ours) {
    const res = await post("/api/sso/signin", headers, form(email));
    expect(res.status, JSON.stringify(headers)).toBe(303);
    expect(new URL(res.headers.get("location")!).origin).toBe(op.origin);
    expect(res.headers.getSetCookie().join()).toContain("cp_sso_binding=");
  }
  // Clients that are not browsers send neither header: nothing to forge through them.
  expect((await post("/api/sso/signin", {}, form(email))).status).toBe(303);
});

test("next-auth's sign-in and sign-out posted from another site without cookies are refused at entry too", async () => {
  const credentials = new URLSearchParams({ email: "someone@victim.example", password: "x", csrfToken: "x", json: "true" });
  for (const path of ["/api/auth/callback/credentials", "/api/auth/signin/credentials", "/api/auth/signout"]) {
    for (const headers of [{ origin: EVIL }, { "sec-fetch-site": "cross-site" }] as Record<string, string>[]) {
      const res = await post(path, headers, credentials);
      expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe("forbidden");
    }
  }
});

test("console procedures (cookie-authenticated writes) refuse another site's origin too", async () => {
  const res = await post(
    "/api/trpc/account.stepUp",
    { cookie: "next-auth.session-token=x", origin: EVIL },
    JSON.stringify({ password: "x" }),
  );
  expect(res.status).toBe(403);
});

test("without cookies there is nothing to forge: token and server-to-server calls pass the entry", async () => {
  const res = await post("/api/sso/token", { origin: EVIL }, new URLSearchParams({ grant_type: "authorization_code", code: "x" }));
  expect(res.status).not.toBe(403);
});

test("the broker's token endpoint takes an application's cross-site call without cookies (a browser app with PKCE)", async () => {
  const res = await post(
    "/api/sso/token",
    { origin: EVIL, "sec-fetch-site": "cross-site" },
    new URLSearchParams({ grant_type: "authorization_code", code: "x" }),
  );
  expect(res.status).not.toBe(403);
});

test("the SAML ACS takes IdPs' cross-site form posts, with the visitor's cookies or without", async () => {
  const attempts: Record<string, string>[] = [
    { cookie: "cp_sso_binding=x", origin: "https://idp.example" },
    { origin: "https://idp.example", "sec-fetch-site": "cross-site" },
    { origin: "null", "sec-fetch-site": "cross-site" },
  ];
  for (const headers of attempts) {
    const res = await post(
      "/api/sso/saml/00000000-0000-4000-8000-000000000000/acs",
      headers,
      new URLSearchParams({ SAMLResponse: "x", RelayState: "y" }),
    );
    expect(res.status, JSON.stringify(headers)).not.toBe(403);
    expect(await res.text()).not.toContain("Cross-site request refused");
  }
});

test("the broker's authorize, an application's cross-site redirect, is not refused at entry", async () => {
  const res = await fetch(`${api.url}/api/sso/authorize?client_id=nobody&response_type=code`, {
    headers: { "sec-fetch-site": "cross-site" },
    redirect: "manual",
  });
  expect(res.status).not.toBe(403);
});
