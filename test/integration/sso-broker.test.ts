/**
 * The OAuth 2.0 broker end to end over real HTTP, against a real OpenID Provider (oidc-provider)
 * and the local SAML IdP on loopback: an application sends the browser to /api/sso/authorize, the
 * IdP signs the person in, the application gets a one-time code, exchanges it (PKCE, client
 * secret) for an access token and the profile, and reads /api/sso/profile. No user, no session.
 * Each refusal is its own test.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { freePort, startApi, type TestApi } from "../support/api.ts";
import { client, db, operator, tenantWithMembers } from "../support/fixtures.ts";
import { startOidcOp, type TestOp } from "../support/oidc-op.ts";
import { startSamlIdp, type SamlIdp } from "../support/saml-idp.ts";
import { TestBrowser, type Hop } from "../support/browser.ts";
import { eventsOf, oidcProvider, uniqueDomain } from "../support/sso-signin.ts";
import { authorizeUrl, exchange, pkce, readProfile, registerApplication, returned, type TestApplication } from "../support/sso-broker.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";
import { clock } from "../../server/clock.ts";
import { uuidV5 } from "../../server/sso/broker/grants.ts";

let api: TestApi;
let op: TestOp;
let idp: SamlIdp;
let operatorToken: string;
let app: TestApplication;
/** One tenant with an enabled OIDC provider that most refusals use. */
let oidc: { tenantId: string; providerId: string; domain: string };

const realNow = clock.now;
afterEach(() => {
  clock.now = realNow;
});

beforeAll(async () => {
  const port = await freePort();
  process.env.APP_URL = `http://127.0.0.1:${port}`;
  [api, op, idp] = await Promise.all([startApi(port), startOidcOp(), startSamlIdp()]);
  operatorToken = (await operator()).token;
  app = await registerApplication(api.url, operatorToken);
  const world = await tenantWithMembers();
  const domain = uniqueDomain();
  const { providerId } = await oidcProvider(api.url, world.admin.token, world.tenant.id, op, { domains: [domain] });
  oidc = { tenantId: world.tenant.id, providerId, domain };
});
afterAll(async () => {
  await metadataChecksIdle();
  await Promise.all([api.close(), op.close(), idp.close()]);
});

function person(domain: string) {
  const sub = `sub-${randomUUID().slice(0, 8)}`;
  const email = `${sub}@${domain}`;
  op.accounts.set(sub, { sub, email, email_verified: true, given_name: "Ada", family_name: "Lovelace", groups: ["engineering"] });
  return { sub, email };
}

/** The OIDC flow up to the redirect back to the application (the browser stops there). */
async function oidcFlow(extra: Record<string, string>, application = app) {
  const { verifier, challenge } = pkce();
  const browser = new TestBrowser();
  const url = authorizeUrl(api.url, application, challenge, extra);
  const start = await browser.request(url);
  let back: Hop = start;
  if (start.location && new URL(start.location).origin === op.origin) {
    const { next } = await browser.follow(start, (u) => u.origin === op.origin);
    back = await browser.request(next!);
  }
  return { browser, back, verifier, state: new URL(url).searchParams.get("state")! };
}

/** A fresh code for a new person of the shared OIDC provider. */
async function oidcCode(application = app) {
  const who = person(oidc.domain);
  const flow = await oidcFlow({ login_hint: who.email }, application);
  const params = returned(flow.back, application);
  expect(params.get("error")).toBeNull();
  return { ...flow, who, code: params.get("code")! };
}

describe("the broker flow", () => {
  test("OIDC: authorize → IdP → code → token (client_secret_basic) → profile; no user, no session", async () => {
    const who = person(oidc.domain);
    const { browser, back, verifier, state } = await oidcFlow({ login_hint: who.email });
    expect(back.status).toBe(303);
    const params = returned(back, app);
    expect(params.get("state")).toBe(state);
    expect(params.get("app")).toBe("1"); // the redirect_uri's own query is kept
    const code = params.get("code")!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(browser.cookie("127.0.0.1", "next-auth.session-token")).toBeUndefined();

    const token = await exchange(api.url, app, code, verifier, "basic");
    expect(token.status).toBe(200);
    expect(token.headers.get("cache-control")).toBe("no-store");
    const profile = {
      id: uuidV5(oidc.providerId, who.sub),
      email: who.email,
      first_name: "Ada",
      last_name: "Lovelace",
      groups: ["engineering"],
      idp_id: op.issuer,
      tenant_id: oidc.tenantId,
      provider_id: oidc.providerId,
      provider_type: "oidc",
      protocol: "oidc",
      raw_attributes: expect.objectContaining({ sub: who.sub, email: who.email }),
    };
    expect(token.json).toEqual({ access_token: expect.stringMatching(/^cpsso_/), token_type: "Bearer", expires_in: 600, profile });

    const read = await readProfile(api.url, token.json.access_token);
    expect(read.status).toBe(200);
    expect(read.headers.get("cache-control")).toBe("no-store");
    expect(read.json).toEqual(profile);

    const prisma = await db();
    expect(await prisma.user.findUnique({ where: { email: who.email } })).toBeNull();
    const stored = await prisma.ssoAuthorizationCode.findFirstOrThrow({ where: { applicationId: app.id }, orderBy: { createdAt: "desc" } });
    expect(stored.codeHash).not.toBe(code);
    const [login] = (await eventsOf(oidc.tenantId, "sso.broker_login")).filter((e) => (e.details as { email: string }).email === who.email);
    expect(login).toMatchObject({ details: { application_id: app.id, provider_id: oidc.providerId, profile_id: profile.id } });
    expect(JSON.stringify(login!.details)).not.toContain(code);
  });

  test("the profile id is stable for the same person across sign-ins", async () => {
    const who = person(oidc.domain);
    const ids = [];
    for (let i = 0; i < 2; i++) {
      const flow = await oidcFlow({ login_hint: who.email });
      const token = await exchange(api.url, app, returned(flow.back, app).get("code")!, flow.verifier);
      ids.push(token.json.profile.id);
    }
    expect(ids[0]).toBe(ids[1]);
    expect(ids[0]).toBe(uuidV5(oidc.providerId, who.sub));
  });

  test("SAML: authorize by domain → IdP → signed response at the ACS → code → token (client_secret_post) → profile", async () => {
    const world = await tenantWithMembers();
    const domain = uniqueDomain();
    const admin = client(api.url, world.admin.token);
    const created = await admin.post(`/api/v1/tenants/${world.tenant.id}/sso`, {
      provider_type: "saml",
      name: "Local SAML IdP",
      metadata_url: idp.metadataUrl,
      domains: [domain],
    });
    expect(created.status).toBe(201);
    expect((await admin.post(`/api/v1/tenants/${world.tenant.id}/sso/${created.json.id}/refresh-metadata`)).json.metadata.status).toBe(
      "valid",
    );
    const email = `alice-${randomUUID().slice(0, 6)}@${domain}`;
    idp.user.nameId = email;

    const { verifier, challenge } = pkce();
    const browser = new TestBrowser();
    const start = await browser.request(authorizeUrl(api.url, app, challenge, { domain, state: "saml-state" }));
    expect(start.status).toBe(303);
    expect(start.location).toMatch(new RegExp(`^${idp.ssoUrl}\\?SAMLRequest=`));
    const form = await idp.login(start.location!);
    const back = await browser.request(form.action, { form: { SAMLResponse: form.samlResponse, RelayState: form.relayState! } });
    const params = returned(back, app);
    expect(params.get("state")).toBe("saml-state");

    const token = await exchange(api.url, app, params.get("code")!, verifier, "post");
    expect(token.status).toBe(200);
    expect(token.json.profile).toMatchObject({
      id: uuidV5(created.json.id, email),
      email,
      tenant_id: world.tenant.id,
      provider_id: created.json.id,
      provider_type: "saml",
      protocol: "saml",
      idp_id: idp.entityId,
    });
    expect((await readProfile(api.url, token.json.access_token)).json.email).toBe(email);
    expect(await (await db()).user.findUnique({ where: { email } })).toBeNull();
  });

  test("tenant_id and provider_id pick the provider too", async () => {
    for (const extra of [{ tenant_id: oidc.tenantId }, { provider_id: oidc.providerId }] as Record<string, string>[]) {
      const who = person(oidc.domain);
      op.loginAs = who.sub;
      try {
        const flow = await oidcFlow(extra);
        const token = await exchange(api.url, app, returned(flow.back, app).get("code")!, flow.verifier);
        expect(token.json.profile.email).toBe(who.email);
      } finally {
        op.loginAs = null;
      }
    }
  });
});

describe("authorization requests that are refused", () => {
  test("a redirect_uri the client did not register: 400 page, never a redirect", async () => {
    const { challenge } = pkce();
    const evil = { ...app, redirectUri: "https://evil.example/callback" };
    const json = await fetch(authorizeUrl(api.url, evil, challenge, { domain: oidc.domain }), { redirect: "manual" });
    expect(json.status).toBe(400);
    expect(json.headers.get("location")).toBeNull();
    expect(await json.json()).toMatchObject({ error: "invalid_request", error_description: expect.stringContaining("redirect_uri") });
    // A prefix of a registered URI is not a match either.
    const prefix = { ...app, redirectUri: app.redirectUri.replace("?app=1", "") };
    const html = await fetch(authorizeUrl(api.url, prefix, challenge, { domain: oidc.domain }), {
      redirect: "manual",
      headers: { accept: "text/html" },
    });
    expect(html.status).toBe(400);
    expect(html.headers.get("location")).toBeNull();
    expect(html.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await html.text()).toContain("redirect_uri is not registered");
  });

  test("an unknown client_id: 400, never a redirect", async () => {
    const { challenge } = pkce();
    const res = await fetch(authorizeUrl(api.url, { ...app, clientId: "cpapp_unknown" }, challenge, { domain: oidc.domain }), {
      redirect: "manual",
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect((await res.json()).error).toBe("invalid_client");
  });

  test.each([
    ["missing PKCE", { code_challenge: null }, "invalid_request"],
    ["plain PKCE", { code_challenge_method: "plain" }, "invalid_request"],
    ["response_type token", { response_type: "token" }, "unsupported_response_type"],
    ["no provider selector", { domain: null }, "invalid_request"],
  ] as const)("%s → redirect with error and state", async (_label, change, error) => {
    const url = new URL(authorizeUrl(api.url, app, pkce().challenge, { state: "keep-me", domain: oidc.domain }));
    for (const [key, value] of Object.entries(change)) {
      if (value === null) url.searchParams.delete(key);
      else url.searchParams.set(key, value);
    }
    const res = await new TestBrowser().request(url.toString());
    const params = returned(res, app);
    expect(params.get("error")).toBe(error);
    expect(params.get("error_description")).toBeTruthy();
    expect(params.get("state")).toBe("keep-me");
    expect(params.get("code")).toBeNull();
  });

  test("a domain with no provider → invalid_request back to the client, audited", async () => {
    const domain = uniqueDomain();
    const { back } = await oidcFlow({ domain, state: "s1" });
    const params = returned(back, app);
    expect(params.get("error")).toBe("invalid_request");
    expect(params.get("error_description")).toContain("unknown_domain");
    expect(params.get("state")).toBe("s1");
    const failures = await eventsOf(null, "sso.login_failed");
    expect(failures.some((e) => (e.details as { purpose: string; detail: string }).detail.includes(domain))).toBe(true);
  });

  test("a disabled provider → access_denied back to the client, audited in its tenant", async () => {
    const world = await tenantWithMembers();
    const { providerId } = await oidcProvider(api.url, world.admin.token, world.tenant.id, op, {
      domains: [uniqueDomain()],
      enabled: false,
    });
    const { back } = await oidcFlow({ provider_id: providerId, state: "s2" });
    const params = returned(back, app);
    expect(params.get("error")).toBe("access_denied");
    expect(params.get("state")).toBe("s2");
    const [failed] = await eventsOf(world.tenant.id, "sso.login_failed");
    expect(failed).toMatchObject({ details: { reason: "disabled", purpose: "broker", provider_id: providerId } });
  });

  test("another tenant's provider: tenant_id and provider_id must agree → invalid_request, nothing started", async () => {
    const other = await tenantWithMembers();
    const { back } = await oidcFlow({ tenant_id: other.tenant.id, provider_id: oidc.providerId, state: "s4" });
    const params = returned(back, app);
    expect(params.get("error")).toBe("invalid_request");
    expect(params.get("state")).toBe("s4");
    expect(await (await db()).ssoSignInRequest.count({ where: { tenantId: other.tenant.id } })).toBe(0);
  });

  test("the IdP vouches for an address outside the provider's domains → access_denied, sso.login_failed", async () => {
    const outsider = person(uniqueDomain());
    op.loginAs = outsider.sub;
    try {
      const { back } = await oidcFlow({ provider_id: oidc.providerId, state: "s3" });
      const params = returned(back, app);
      expect(params.get("error")).toBe("access_denied");
      expect(params.get("error_description")).toContain("domain_mismatch");
      expect(params.get("state")).toBe("s3");
    } finally {
      op.loginAs = null;
    }
    const failures = await eventsOf(oidc.tenantId, "sso.login_failed");
    expect(failures.some((e) => (e.details as { reason: string; purpose: string }).purpose === "broker")).toBe(true);
  });
});

describe("token requests that are refused", () => {
  test("a wrong code_verifier (PKCE mismatch) → invalid_grant, and the code is used up", async () => {
    const { code, verifier } = await oidcCode();
    const wrong = await exchange(api.url, app, code, pkce().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.json).toEqual({ error: "invalid_grant", error_description: expect.stringContaining("code_verifier") });
    expect(wrong.headers.get("cache-control")).toBe("no-store");
    expect((await exchange(api.url, app, code, verifier)).json.error).toBe("invalid_grant");
  });

  test("a code used twice → invalid_grant, and the token the first use got is revoked", async () => {
    const { code, verifier } = await oidcCode();
    const first = await exchange(api.url, app, code, verifier);
    expect(first.status).toBe(200);
    const second = await exchange(api.url, app, code, verifier);
    expect(second.status).toBe(400);
    expect(second.json).toEqual({ error: "invalid_grant", error_description: "the code was already used" });
    expect((await readProfile(api.url, first.json.access_token)).status).toBe(401);
  });

  test("a code older than 60 seconds → invalid_grant", async () => {
    const { code, verifier } = await oidcCode();
    const issued = Date.now();
    clock.now = () => new Date(issued + 61_000);
    const late = await exchange(api.url, app, code, verifier);
    expect(late.json).toEqual({ error: "invalid_grant", error_description: "the code has expired" });
  });

  test("a wrong client secret → 401 invalid_client with WWW-Authenticate, by either method", async () => {
    const { code, verifier } = await oidcCode();
    for (const auth of ["basic", "post"] as const) {
      const res = await exchange(api.url, { ...app, clientSecret: "cpsec_wrong" }, code, verifier, auth);
      expect(res.status).toBe(401);
      expect(res.json.error).toBe("invalid_client");
      expect(res.headers.get("www-authenticate")).toMatch(/^Basic realm="sso"/);
    }
    // Not used up by the failed attempts.
    expect((await exchange(api.url, app, code, verifier)).status).toBe(200);
  });

  test("client_secret_basic and client_secret_post both work; both at once is invalid_request", async () => {
    for (const auth of ["basic", "post"] as const) {
      const { code, verifier } = await oidcCode();
      expect((await exchange(api.url, app, code, verifier, auth)).status).toBe(200);
    }
    const { code, verifier } = await oidcCode();
    const pair = Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64");
    const both = await fetch(`${api.url}/api/sso/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${pair}` },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: app.redirectUri,
        code_verifier: verifier,
        client_secret: app.clientSecret,
      }),
    });
    expect(both.status).toBe(400);
    expect((await both.json()).error).toBe("invalid_request");
  });

  test("a code issued to application A, redeemed by application B → invalid_grant (A can still redeem it)", async () => {
    const other = await registerApplication(api.url, operatorToken, app.redirectUri);
    const { code, verifier } = await oidcCode(app);
    const stolen = await exchange(api.url, other, code, verifier);
    expect(stolen.json).toEqual({ error: "invalid_grant", error_description: "the code was issued to another client" });
    expect((await exchange(api.url, app, code, verifier)).status).toBe(200);
  });

  test("another redirect_uri than the authorization request's → invalid_grant", async () => {
    const { code, verifier } = await oidcCode();
    const res = await exchange(api.url, { ...app, redirectUri: "http://127.0.0.1:9/other" }, code, verifier);
    expect(res.json.error).toBe("invalid_grant");
  });

  test("grant_type, content type and missing parameters", async () => {
    const post = (body: string, type = "application/x-www-form-urlencoded") =>
      fetch(`${api.url}/api/sso/token`, {
        method: "POST",
        headers: {
          "content-type": type,
          authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}`,
        },
        body,
      }).then(async (r) => ({ status: r.status, json: await r.json() }));
    expect((await post("grant_type=client_credentials")).json.error).toBe("unsupported_grant_type");
    expect((await post("grant_type=authorization_code&code=x")).json).toMatchObject({ error: "invalid_request" });
    expect((await post(JSON.stringify({ grant_type: "authorization_code" }), "application/json")).json.error).toBe("invalid_request");
    expect((await post("grant_type=authorization_code&grant_type=authorization_code")).json.error).toBe("invalid_request");
  });
});

describe("the profile endpoint", () => {
  test("an expired, unknown or missing access token → 401 with WWW-Authenticate", async () => {
    const { code, verifier } = await oidcCode();
    const token = await exchange(api.url, app, code, verifier);
    const issued = Date.now();
    clock.now = () => new Date(issued + 601_000);
    const expired = await readProfile(api.url, token.json.access_token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get("www-authenticate")).toMatch(/^Bearer realm="sso", error="invalid_token"/);
    clock.now = realNow;
    const unknown = await readProfile(api.url, "cpsso_not-a-token");
    expect(unknown.status).toBe(401);
    expect(unknown.json.error).toBe("invalid_token");
    const missing = await readProfile(api.url, null);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="sso"');
    // An API token of the control plane is not a broker access token.
    expect((await readProfile(api.url, operatorToken)).status).toBe(401);
  });
});
