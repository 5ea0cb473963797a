/**
 * The OAuth 2.0 broker end to end over real HTTP, against a real OpenID Provider (oidc-provider)
 * and the local SAML IdP on loopback: an application sends the browser to /api/sso/authorize, the
 * IdP signs the person in, the application gets a one-time code, exchanges it (PKCE, client
 * secret) for an access token and the profile, and reads /api/sso/profile. No user, no session.
 * Each refused authorization request is its own test (token and profile refusals: sso-broker-token).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { client, db, tenantWithMembers, verifiedDomains } from "../support/fixtures.ts";
import { startSamlIdp, type SamlIdp } from "../support/saml-idp.ts";
import { TestBrowser } from "../support/browser.ts";
import { eventsOf, oidcProvider, uniqueDomain } from "../support/sso-signin.ts";
import { authorizeUrl, BrokerWorld, exchange, pkce, readProfile, returned, type TestApplication } from "../support/sso-broker.ts";
import { apiServer } from "../support/api-server.ts";
import type { TestOp } from "../support/oidc-op.ts";
import { uuidV5 } from "../../server/sso/broker/grants.ts";

const api = apiServer({ appUrl: true });
const world = new BrokerWorld(api);
let op: TestOp;
let idp: SamlIdp;
let app: TestApplication;
let oidc: BrokerWorld["oidc"];

beforeAll(async () => {
  [, idp] = await Promise.all([world.start(), startSamlIdp()]);
  ({ op, app, oidc } = world);
});
afterAll(async () => {
  await Promise.all([world.close(), idp.close()]);
});

const person = (domain: string) => world.person(domain);
const oidcFlow = (extra: Record<string, string>) => world.flow(extra);

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
      idp_id: who.sub,
      issuer: op.issuer,
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
    await verifiedDomains(world.tenant.id, [domain]);
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
      idp_id: email,
      issuer: idp.entityId,
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
