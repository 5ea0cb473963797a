/**
 * Every way an OIDC sign-in is refused, each on its own, against the real OP: the browser lands on
 * /login with the reason, no session is issued, and `sso.login_failed` records the reason.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { randomBytes, randomUUID } from "node:crypto";
import { generateKeyPair, importJWK, SignJWT, type JWK } from "jose";
import { apiServer } from "../support/api-server.ts";
import { db, tenantWithMembers } from "../support/fixtures.ts";
import { startOidcOp, type TestOp } from "../support/oidc-op.ts";
import { TestBrowser, type Hop } from "../support/browser.ts";
import { eventsOf, oidcProvider, pathOf, signIn, toCallback, uniqueDomain } from "../support/sso-signin.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";

const api = apiServer({ appUrl: true });
let op: TestOp;
beforeAll(async () => {
  op = await startOidcOp();
});
afterEach(() => {
  op.loginAs = null;
  op.rogueToken = null;
});
afterAll(async () => {
  await metadataChecksIdle();
  await op.close();
});

async function world(options: { metadataUrl?: string } = {}) {
  const { tenant, admin } = await tenantWithMembers();
  const domain = uniqueDomain();
  const provider = await oidcProvider(api.url, admin.token, tenant.id, op, { domains: [domain], ...options });
  const sub = `sub-${randomUUID().slice(0, 8)}`;
  const email = `${sub}@${domain}`;
  op.accounts.set(sub, { sub, email, email_verified: true, given_name: "Grace", family_name: "Hopper" });
  return { tenant, admin, domain, email, sub, ...provider };
}

/** The flow up to the callback, and the pending row it stored. */
async function started(w: { email: string; providerId: string }) {
  const browser = new TestBrowser();
  const { callback } = await toCallback(browser, api.url, op.origin, w.email);
  expect(callback).toMatch(/\/api\/sso\/oidc\/.+\/callback\?/);
  const pending = await (
    await db()
  ).ssoSignInRequest.findFirstOrThrow({ where: { providerId: w.providerId, consumedAt: null }, orderBy: { createdAt: "desc" } });
  return { browser, callback: callback!, pending };
}

async function expectRefused(hop: Hop, tenantId: string | null, reason: string, browser?: TestBrowser) {
  expect(hop.status).toBe(303);
  expect(pathOf(hop.location)).toBe(`/login?sso_error=${reason}`);
  expect(hop.headers.getSetCookie().some((c) => c.startsWith("next-auth.session-token="))).toBe(false);
  if (browser) expect(browser.cookie("127.0.0.1", "next-auth.session-token")).toBeUndefined();
  const failures = await eventsOf(tenantId, "sso.login_failed");
  expect(failures.map((f) => (f.details as { reason: string }).reason)).toContain(reason);
  expect(await eventsOf(tenantId, "user.login")).toEqual([]);
  return failures.find((f) => (f.details as { reason: string }).reason === reason)!;
}

describe("refused at the callback", () => {
  test("wrong state", async () => {
    const w = await world();
    const { browser, callback } = await started(w);
    const tampered = new URL(callback);
    tampered.searchParams.set("state", randomBytes(32).toString("base64url"));
    const failure = await expectRefused(await browser.request(tampered.toString()), w.tenant.id, "state", browser);
    // The audit entry names the reason and provider, never the code or tokens.
    expect(JSON.stringify(failure.details)).not.toContain(new URL(callback).searchParams.get("code")!);
    expect(failure.details).toMatchObject({ provider_id: w.providerId, purpose: "console" });
  });

  test("the callback URL replayed in another browser (login CSRF) finds no sign-in", async () => {
    const w = await world();
    const { callback } = await started(w);
    await expectRefused(await new TestBrowser().request(callback), w.tenant.id, "state");
  });

  test("PKCE mismatch: the OP refuses the code for another verifier", async () => {
    const w = await world();
    const { browser, callback, pending } = await started(w);
    await (
      await db()
    ).ssoSignInRequest.update({ where: { id: pending.id }, data: { codeVerifier: randomBytes(48).toString("base64url") } });
    await expectRefused(await browser.request(callback), w.tenant.id, "pkce", browser);
  });

  test("code reuse: the same callback twice is refused by us, and even replayed past us by the OP", async () => {
    const w = await world();
    const { browser, callback, pending } = await started(w);
    const binding = browser.cookie("127.0.0.1", "cp_sso_binding")!;
    expect(pathOf((await browser.request(callback)).location)).toBe(`/tenants/${w.tenant.id}`);
    browser.setCookie("127.0.0.1", "cp_sso_binding", binding);
    const again = await browser.request(callback);
    expect(pathOf(again.location)).toBe("/login?sso_error=state");
    // Force our side to accept it again: the OP still refuses a used code.
    await (await db()).ssoSignInRequest.update({ where: { id: pending.id }, data: { consumedAt: null } });
    browser.setCookie("127.0.0.1", "cp_sso_binding", binding);
    const reuse = await browser.request(callback);
    expect(pathOf(reuse.location)).toBe("/login?sso_error=pkce");
  });

  test("wrong nonce", async () => {
    const w = await world();
    const { browser, callback, pending } = await started(w);
    await (await db()).ssoSignInRequest.update({ where: { id: pending.id }, data: { nonce: randomBytes(32).toString("base64url") } });
    await expectRefused(await browser.request(callback), w.tenant.id, "nonce", browser);
  });

  test("expired request (older than 10 minutes)", async () => {
    const w = await world();
    const { browser, callback, pending } = await started(w);
    await (
      await db()
    ).ssoSignInRequest.update({
      where: { id: pending.id },
      data: { expiresAt: new Date(Date.now() - 1000), createdAt: new Date(Date.now() - 601_000) },
    });
    await expectRefused(await browser.request(callback), w.tenant.id, "expired_request", browser);
  });

  test("provider disabled while the person was at the IdP", async () => {
    const w = await world();
    const { browser, callback } = await started(w);
    await (await db()).ssoProvider.update({ where: { id: w.providerId }, data: { enabled: false } });
    await expectRefused(await browser.request(callback), w.tenant.id, "disabled", browser);
  });

  test("another tenant's provider: a sign-in started for A does not complete at B's callback", async () => {
    const a = await world();
    const b = await world();
    const { browser, callback } = await started(a);
    const elsewhere = callback.replace(a.providerId, b.providerId);
    await expectRefused(await browser.request(elsewhere), b.tenant.id, "state", browser);
    expect(await eventsOf(a.tenant.id, "user.login")).toEqual([]);
  });

  test("the IdP refuses the person (error=access_denied)", async () => {
    const w = await world();
    op.accounts.delete(w.sub);
    const hop = await signIn(new TestBrowser(), api.url, op.origin, w.email);
    const failure = await expectRefused(hop, w.tenant.id, "idp_error");
    expect((failure.details as { detail: string }).detail).toContain("access_denied");
  });

  test("the IdP vouches for an address outside the provider's domains", async () => {
    const w = await world();
    const outsider = `sub-${randomUUID().slice(0, 8)}`;
    op.accounts.set(outsider, { sub: outsider, email: `${outsider}@elsewhere.example`, email_verified: true });
    op.loginAs = outsider;
    await expectRefused(await signIn(new TestBrowser(), api.url, op.origin, w.email), w.tenant.id, "domain_mismatch");
    expect(await (await db()).user.count({ where: { email: `${outsider}@elsewhere.example` } })).toBe(0);
  });
});

describe("id_tokens a well-behaved OP would never issue (a token endpoint the test controls)", () => {
  async function rogue(sign: (claims: Record<string, unknown>) => Promise<string>) {
    const w = await world({ metadataUrl: op.rogueDiscoveryUrl });
    const { browser, callback, pending } = await started(w);
    op.rogueToken = async () => {
      const now = Math.floor(Date.now() / 1000);
      const claims = {
        iss: op.issuer,
        aud: w.clientId,
        sub: w.sub,
        email: w.email,
        email_verified: true,
        nonce: pending.nonce,
        iat: now,
        exp: now + 300,
      };
      return { access_token: randomUUID(), token_type: "Bearer", expires_in: 300, id_token: await sign(claims) };
    };
    return { w, hop: await browser.request(callback), browser };
  }
  const opKey = () => importJWK(op.signingKey as JWK, "RS256");

  test("control: the same token signed by the OP's key is accepted", async () => {
    const { w, hop } = await rogue(async (claims) =>
      new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: op.signingKey.kid }).sign(await opKey()),
    );
    expect(pathOf(hop.location)).toBe(`/tenants/${w.tenant.id}`);
  });

  test("signed by a key the OP's JWKS does not publish", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const { w, hop, browser } = await rogue((claims) =>
      new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "attacker" }).sign(privateKey),
    );
    await expectRefused(hop, w.tenant.id, "signature", browser);
  });

  test("signed by another key under the OP's own kid", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const { w, hop, browser } = await rogue((claims) =>
      new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: op.signingKey.kid }).sign(privateKey),
    );
    await expectRefused(hop, w.tenant.id, "signature", browser);
  });

  test("wrong audience", async () => {
    const { w, hop, browser } = await rogue(async (claims) =>
      new SignJWT({ ...claims, aud: "another-client" }).setProtectedHeader({ alg: "RS256", kid: op.signingKey.kid }).sign(await opKey()),
    );
    await expectRefused(hop, w.tenant.id, "audience", browser);
  });

  test("expired id_token", async () => {
    const { w, hop, browser } = await rogue(async (claims) =>
      new SignJWT({ ...claims, iat: Math.floor(Date.now() / 1000) - 3600, exp: Math.floor(Date.now() / 1000) - 1800 })
        .setProtectedHeader({ alg: "RS256", kid: op.signingKey.kid })
        .sign(await opKey()),
    );
    await expectRefused(hop, w.tenant.id, "clock", browser);
  });

  test("another issuer", async () => {
    const { w, hop, browser } = await rogue(async (claims) =>
      new SignJWT({ ...claims, iss: "https://evil.example" })
        .setProtectedHeader({ alg: "RS256", kid: op.signingKey.kid })
        .sign(await opKey()),
    );
    await expectRefused(hop, w.tenant.id, "issuer", browser);
  });
});

describe("refused before the IdP", () => {
  test("an email whose domain no enabled provider has: back to /login, audited as a platform event", async () => {
    const domain = uniqueDomain();
    const hop = await new TestBrowser().request(`${api.url}/api/sso/signin`, { form: { email: `someone@${domain}` } });
    expect(pathOf(hop.location)).toBe("/login?sso_error=unknown_domain");
    const failures = await eventsOf(null, "sso.login_failed");
    expect(failures.some((f) => (f.details as { detail: string }).detail.includes(domain))).toBe(true);
  });

  test("a disabled provider's domain is not routed", async () => {
    const w = await world();
    await (await db()).ssoProvider.update({ where: { id: w.providerId }, data: { enabled: false } });
    const hop = await new TestBrowser().request(`${api.url}/api/sso/signin`, { form: { email: w.email } });
    expect(pathOf(hop.location)).toBe("/login?sso_error=unknown_domain");
    expect(await (await db()).ssoSignInRequest.count({ where: { providerId: w.providerId } })).toBe(0);
  });
});
