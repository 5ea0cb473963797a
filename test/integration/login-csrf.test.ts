/**
 * A page on another site cannot make a visitor's browser act with its cookies: the "Continue with
 * SSO" form post (login CSRF: signing the visitor into an attacker's tenant) and every other
 * state-changing route are refused where the request enters when the Origin is another site's, or
 * the browser says the request is cross-site. The SAML ACS, which IdPs post to from their own
 * page, is the one route that takes them. Issue 21, finding 11.
 */
import { expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { db } from "../support/fixtures.ts";

const api = apiServer();
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

test("the SAML ACS takes IdPs' cross-site form posts", async () => {
  const res = await post(
    "/api/sso/saml/00000000-0000-4000-8000-000000000000/acs",
    { cookie: "cp_sso_binding=x", origin: "https://idp.example" },
    new URLSearchParams({ SAMLResponse: "x", RelayState: "y" }),
  );
  const body = await res.text();
  expect(body).not.toContain("Cross-site request refused");
});
