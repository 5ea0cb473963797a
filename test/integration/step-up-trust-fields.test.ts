/**
 * Step-up guards what decides who is trusted and where data flows, not only disabling: an SSO
 * provider's metadata URL, domains, client ID, default role, IdP-initiated sign-in and Entra
 * directories, and a webhook's URL. A PATCH that changes one of them with an admin token that has
 * not stepped up is refused (step_up_required, as disabling is) and changes nothing; the same value
 * again, or a rename, needs none. Moving the metadata URL drops the stored OIDC client secret, so
 * repointing a provider at an attacker's IdP and running Test sign-in no longer hands it the secret.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { apiServer } from "../support/api-server.ts";
import { client, db, tenantWithMembers, verifiedDomains } from "../support/fixtures.ts";
import { startOidcOp, type TestOp } from "../support/oidc-op.ts";
import { TestBrowser } from "../support/browser.ts";
import { passwordSessionCookie } from "../support/console-caller.ts";
import { eventsOf, pathOf, signIn, uniqueDomain } from "../support/sso-signin.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";

const api = apiServer({ appUrl: true });
let op: TestOp;
let attacker: AttackerIdp;
beforeAll(async () => {
  [op, attacker] = await Promise.all([startOidcOp(), startAttackerIdp()]);
});
afterEach(() => {
  op.loginAs = null;
});
afterAll(async () => {
  await metadataChecksIdle();
  await Promise.all([op.close(), attacker.close()]);
});

const ENTRA_TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47";

async function setup() {
  const { tenant, admin: adminUser, viewer } = await tenantWithMembers();
  const base = `/api/v1/tenants/${tenant.id}/sso`;
  const admin = client(api.url, adminUser.token);
  const stepUp = async () => expect((await admin.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
  return { tenant, adminUser, viewer, base, admin, stepUp };
}
type World = Awaited<ReturnType<typeof setup>>;

/** An azure_ad provider on OIDC: every guarded field applies to it. */
async function provider(w: World) {
  const domains = [uniqueDomain(), uniqueDomain()];
  await verifiedDomains(w.tenant.id, domains);
  const res = await w.admin.post(w.base, {
    provider_type: "azure_ad",
    name: "Entra",
    metadata_url: op.discoveryUrl,
    domains,
    client_id: "client-1",
    client_secret: "secret-1",
  });
  expect(res.status, res.text).toBe(201);
  // As it stands once its metadata was checked (the check writes the row after the reply).
  await metadataChecksIdle();
  const one = `${w.base}/${res.json.id}`;
  return { id: res.json.id as string, one, created: (await w.admin.get(one)).json };
}

const GUARDED: Array<[string, () => unknown]> = [
  ["metadata_url", () => `${op.discoveryUrl}?moved=1`],
  ["domains", () => [uniqueDomain()]],
  ["domains", () => []],
  ["client_id", () => "client-2"],
  ["client_id", () => null],
  ["default_role", () => "admin"],
  ["allow_idp_initiated", () => true],
  ["entra_tenant_ids", () => [ENTRA_TENANT]],
];

describe("SSO provider fields that decide who is trusted", () => {
  test.each(GUARDED)("%s: without step-up 401 step_up_required and nothing changes; with it 200", async (field, value) => {
    const w = await setup();
    const { one, created } = await provider(w);
    const patch = { [field]: value() };
    // A new domain must be a verified domain of the tenant (else 400, not the step-up asked about here).
    if (field === "domains") await verifiedDomains(w.tenant.id, patch.domains as string[]);

    const refused = await w.admin.patch(one, patch);
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe("step_up_required");
    expect(refused.headers.get("www-authenticate")).toBe('Bearer error="insufficient_user_authentication", max_age=600');
    expect((await w.admin.get(one)).json).toEqual(created);
    expect(await eventsOf(w.tenant.id, "sso_provider.updated")).toEqual([]);

    await w.stepUp();
    const saved = await w.admin.patch(one, patch);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json[field]).toEqual(patch[field]);
    expect(await eventsOf(w.tenant.id, "sso_provider.updated")).toHaveLength(1);
  });

  test("the same values again (domains in another order), a rename, a new secret or enabling need no step-up", async () => {
    const w = await setup();
    const { one, created } = await provider(w);
    const same = {
      name: "Entra (prod)",
      metadata_url: created.metadata_url,
      domains: [...created.domains].reverse(),
      client_id: created.client_id,
      default_role: created.default_role,
      allow_idp_initiated: created.allow_idp_initiated,
      entra_tenant_ids: created.entra_tenant_ids,
    };
    const renamed = await w.admin.patch(one, same);
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json).toMatchObject({ ...same, domains: created.domains });
    expect((await w.admin.patch(one, { name: "Entra" })).status).toBe(200);
    expect((await w.admin.patch(one, { client_secret: "secret-2" })).status).toBe(200);

    await w.stepUp();
    expect((await w.admin.patch(one, { enabled: false })).status).toBe(200);
    await (await db()).stepUp.deleteMany({ where: { userId: w.adminUser.user.id } });
    expect((await w.admin.patch(one, { enabled: true })).status).toBe(200);
    expect((await w.admin.patch(one, { default_role: "admin" })).status).toBe(401);
  });

  test("isolation first: another tenant's provider is 404 with or without step-up, a viewer 403", async () => {
    const a = await setup();
    const b = await setup();
    const { one } = await provider(a);
    expect((await b.admin.patch(one, { default_role: "admin" })).status).toBe(404);
    expect((await b.admin.patch(`${b.base}/${one.split("/").pop()}`, { domains: [] })).status).toBe(404);
    await b.stepUp();
    expect((await b.admin.patch(one, { default_role: "admin" })).status).toBe(404);

    const viewer = client(api.url, a.viewer.token);
    expect((await viewer.patch(one, { default_role: "admin" })).status).toBe(403);
    expect((await viewer.post("/api/v1/auth/step-up", { password: "viewer-password" })).status).toBe(200);
    expect((await viewer.patch(one, { default_role: "admin" })).status).toBe(403);
    expect((await a.admin.get(one)).json.default_role).toBe("viewer");
  });
});

describe("a metadata URL change drops the stored client secret", () => {
  test("unless the same PATCH brings a new one; the audit trail says dropped, never the secret", async () => {
    const w = await setup();
    const { one } = await provider(w);
    await w.stepUp();

    const moved = await w.admin.patch(one, { metadata_url: `${op.discoveryUrl}?moved=1` });
    expect(moved.json).toMatchObject({ client_secret_set: false, client_secret_dropped: true, client_id: "client-1" });
    const row = await (await db()).ssoProvider.findUniqueOrThrow({ where: { id: moved.json.id } });
    expect(row.clientSecretCiphertext).toBeNull();
    const [dropped] = await eventsOf(w.tenant.id, "sso_provider.updated");
    expect(dropped!.details).toMatchObject({ changes: { client_secret: { from: "set", to: "dropped" } } });

    // Another move keeps it dropped; a rename does not bring it back.
    expect((await w.admin.patch(one, { name: "Renamed" })).json.client_secret_dropped).toBe(true);
    const entered = await w.admin.patch(one, { client_secret: "secret-2" });
    expect(entered.json).toMatchObject({ client_secret_set: true, client_secret_dropped: false });

    const withSecret = await w.admin.patch(one, { metadata_url: op.discoveryUrl, client_secret: "secret-3" });
    expect(withSecret.json).toMatchObject({ client_secret_set: true, client_secret_dropped: false });

    // A provider with no secret loses nothing; null says it has none and clears the mark.
    await w.admin.patch(one, { metadata_url: `${op.discoveryUrl}?moved=2` });
    expect((await w.admin.patch(one, { client_secret: null })).json).toMatchObject({
      client_secret_set: false,
      client_secret_dropped: false,
    });
    expect((await w.admin.patch(one, { metadata_url: op.discoveryUrl })).json).toMatchObject({ client_secret_dropped: false });
    const all = JSON.stringify((await eventsOf(w.tenant.id, "sso_provider.updated")).map((e) => e.details));
    for (const secret of ["secret-1", "secret-2", "secret-3"]) expect(all).not.toContain(secret);
  });

  test("sign-in is refused (not_configured) until the secret is entered again, then works", async () => {
    const w = await setup();
    const domain = uniqueDomain();
    const { providerId, secret } = await oidcWithSecret(w, [domain]);
    const sub = `sub-${randomUUID().slice(0, 8)}`;
    op.accounts.set(sub, { sub, email: `${sub}@${domain}`, email_verified: true });
    await w.stepUp();
    await w.admin.patch(`${w.base}/${providerId}`, { metadata_url: `${op.discoveryUrl}?moved=1` });

    const refused = await signIn(new TestBrowser(), api.url, op.origin, `${sub}@${domain}`);
    expect(pathOf(refused.location)).toBe("/login?sso_error=not_configured");
    const [failure] = await eventsOf(w.tenant.id, "sso.login_failed");
    expect((failure!.details as { detail: string }).detail).toContain("enter the client secret again");

    expect((await w.admin.patch(`${w.base}/${providerId}`, { client_secret: secret })).status).toBe(200);
    const back = await signIn(new TestBrowser(), api.url, op.origin, `${sub}@${domain}`);
    expect(pathOf(back.location)).toBe(`/tenants/${w.tenant.id}`);
  });

  test("the attack: repointed at an IdP whose token endpoint records what it gets, Test sign-in never sends it the old secret", async () => {
    const w = await setup();
    const { providerId, secret } = await oidcWithSecret(w, [uniqueDomain()]);
    await w.stepUp();
    const repointed = await w.admin.patch(`${w.base}/${providerId}`, { metadata_url: attacker.discoveryUrl });
    expect(repointed.status, repointed.text).toBe(200);
    expect(repointed.json).toMatchObject({ client_secret_set: false, client_secret_dropped: true });

    const started = await w.admin.post(`${w.base}/${providerId}/test-signin`);
    expect(started.status).toBe(200);
    if (new URL(started.json.url).origin === attacker.origin) {
      // As the admin's browser would: through the attacker's authorize endpoint and back to our callback.
      const browser = new TestBrowser();
      const [name, value] = (await passwordSessionCookie(w.adminUser.user.id)).split("=");
      browser.setCookie("127.0.0.1", name!, value!);
      const { next } = await browser.follow(await browser.request(started.json.url), (url) => url.origin === attacker.origin);
      if (next) await browser.request(next);
    }

    const received = JSON.stringify(attacker.tokenRequests);
    expect(received).not.toContain(secret);
    expect(received).not.toContain(encodeURIComponent(secret));
    expect(attacker.tokenRequests).toEqual([]);
    const result = await w.admin.get(`${w.base}/${providerId}/test-signin/${started.json.request_id}`);
    expect(result.json).toMatchObject({ status: "failed", reason: "not_configured" });
    expect(result.json.detail).toContain("enter the client secret again");
  });
});

describe("a webhook's URL", () => {
  const HOOK = { url: "https://hooks.example.test/receive", events: ["user.created"] };

  test("a new URL needs step-up (else 401 and nothing changes); description, events, the same URL do not", async () => {
    const w = await setup();
    const base = `/api/v1/tenants/${w.tenant.id}/webhooks`;
    const created = await w.admin.post(base, HOOK);
    const one = `${base}/${created.json.id}`;
    const { secret: _secret, ...stored } = created.json;

    const refused = await w.admin.patch(one, { url: "https://attacker.example.test/collect" });
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe("step_up_required");
    expect((await w.admin.get(one)).json).toEqual(stored);
    expect(await eventsOf(w.tenant.id, "webhook.updated")).toEqual([]);

    expect((await w.admin.patch(one, { url: HOOK.url, description: "CRM", events: ["*"] })).status).toBe(200);
    expect((await w.admin.patch(one, { enabled: false })).status).toBe(200);

    await w.stepUp();
    const moved = await w.admin.patch(one, { url: "https://hooks.example.test/v2" });
    expect(moved.status).toBe(200);
    expect(moved.json.url).toBe("https://hooks.example.test/v2");
  });

  test("another tenant's webhook is 404 with or without step-up; a viewer 403", async () => {
    const a = await setup();
    const b = await setup();
    const one = `/api/v1/tenants/${a.tenant.id}/webhooks/${(await a.admin.post(`/api/v1/tenants/${a.tenant.id}/webhooks`, HOOK)).json.id}`;
    expect((await b.admin.patch(one, { url: "https://attacker.example.test/collect" })).status).toBe(404);
    await b.stepUp();
    expect((await b.admin.patch(one, { url: "https://attacker.example.test/collect" })).status).toBe(404);
    expect((await client(api.url, a.viewer.token).patch(one, { url: "https://attacker.example.test/collect" })).status).toBe(403);
    expect((await a.admin.get(one)).json.url).toBe(HOOK.url);
  });
});

/** An OIDC provider at the test OP, its client registered there with this secret. */
async function oidcWithSecret(w: World, domains: string[]) {
  await verifiedDomains(w.tenant.id, domains);
  const clientId = `client-${randomUUID().slice(0, 8)}`;
  const secret = `secret-${randomUUID()}`;
  const res = await w.admin.post(w.base, {
    provider_type: "oidc",
    name: "OP",
    metadata_url: op.discoveryUrl,
    domains,
    client_id: clientId,
    client_secret: secret,
  });
  expect(res.status, res.text).toBe(201);
  op.addClient({ client_id: clientId, client_secret: secret, redirect_uris: [res.json.sp.redirect_uri] });
  return { providerId: res.json.id as string, secret };
}

interface AttackerIdp {
  origin: string;
  discoveryUrl: string;
  /** Every request to the token endpoint: its headers (Basic credentials decoded) and body. */
  tokenRequests: Array<{ authorization: string | null; body: string }>;
  close(): Promise<void>;
}

/**
 * Another IdP on 127.0.0.1: its discovery names its own endpoints; its authorize endpoint sends the
 * browser straight back with a code; its token endpoint records what it receives and refuses.
 */
async function startAttackerIdp(): Promise<AttackerIdp> {
  const tokenRequests: AttackerIdp["tokenRequests"] = [];
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url!, origin);
    if (url.pathname === "/.well-known/openid-configuration") {
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          jwks_uri: `${origin}/jwks`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
        }),
      );
      return;
    }
    if (url.pathname === "/authorize") {
      const back = new URL(url.searchParams.get("redirect_uri")!);
      back.searchParams.set("code", "attacker-code");
      back.searchParams.set("state", url.searchParams.get("state")!);
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (url.pathname === "/token") {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      tokenRequests.push({
        authorization: basic ? decodeURIComponent(Buffer.from(basic, "base64").toString()) : (req.headers.authorization ?? null),
        body: decodeURIComponent(Buffer.concat(chunks).toString()),
      });
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_grant" }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    discoveryUrl: `${origin}/.well-known/openid-configuration`,
    tokenRequests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
