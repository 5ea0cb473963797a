/**
 * Setup links over real HTTP: the admin's REST side (step-up, shown once, isolation, revoke), the
 * opening (a 4-hour session cookie, expiry, revocation), and what a link's holder can reach
 * through /api/setup/trpc (its intent's steps in its tenant; 403 for everything else, 404 for
 * another tenant's ids), everything audited as `setup_link:<id>` with the link's creator named.
 */
import { describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, db, tenantWithMembers, verifiedDomains } from "../support/fixtures.ts";

const api = apiServer();
const base = (tenantId: string) => `/api/v1/tenants/${tenantId}/setup-links`;
const events = async (tenantId: string, type: string) =>
  (await db()).auditEvent.findMany({ where: { tenantId, eventType: type }, orderBy: { sequence: "asc" } });

async function steppedUpAdmin() {
  const members = await tenantWithMembers();
  const admin = client(api.url, members.admin.token);
  expect((await admin.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
  return { ...members, adminClient: admin };
}

async function makeLink(intent: string, body: Record<string, unknown> = {}) {
  const ctx = await steppedUpAdmin();
  const res = await ctx.adminClient.post(base(ctx.tenant.id), { intent, ...body });
  expect(res.status).toBe(201);
  return { ...ctx, link: res.json as { id: string; url: string; expires_at: string } };
}

/** Opens the link as a browser would: the redirect, and the setup cookie it sets. */
async function open(url: string): Promise<{ location: string; cookie: string | null }> {
  const res = await fetch(new URL(new URL(url).pathname, api.url), { redirect: "manual" });
  expect(res.status).toBe(303);
  const setCookie = res.headers.get("set-cookie") ?? "";
  const match = /cp_setup=([^;]*)/.exec(setCookie);
  return {
    location: new URL(res.headers.get("location")!).pathname + new URL(res.headers.get("location")!).search,
    cookie: match?.[1] || null,
  };
}

/** A tRPC call as the guided page makes it, with the setup cookie. */
async function call(cookie: string, path: string, input?: unknown, endpoint = "/api/setup/trpc") {
  const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const isQuery = /\.(state|list|lastTest|get|me)$/.test(path);
  const res = await fetch(new URL(`${endpoint}/${path}${isQuery ? query : ""}`, api.url), {
    method: isQuery ? "GET" : "POST",
    headers: { cookie: `cp_setup=${cookie}`, "content-type": "application/json", origin: api.url },
    body: isQuery ? undefined : JSON.stringify(input ?? {}),
  });
  const json = (await res.json()) as { result?: { data: any }; error?: { data: { httpStatus: number; code: string } } }; // eslint-disable-line @typescript-eslint/no-explicit-any
  return { status: res.status, data: json.result?.data, error: json.error, setCookie: res.headers.get("set-cookie") };
}

describe("making a setup link", () => {
  test("needs a tenant admin with a fresh step-up; answers the URL once; lists and gets never show it", async () => {
    const { tenant, admin, viewer } = await tenantWithMembers();
    const adminClient = client(api.url, admin.token);
    expect((await client(api.url, viewer.token).post(base(tenant.id), { intent: "sso" })).status).toBe(403);
    const noStepUp = await adminClient.post(base(tenant.id), { intent: "sso" });
    expect(noStepUp.status).toBe(401);
    expect(noStepUp.json.code).toBe("step_up_required");
    await adminClient.post("/api/v1/auth/step-up", { password: "admin-password" });
    const res = await adminClient.post(base(tenant.id), { intent: "domain_verification" });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ intent: "domain_verification", state: "active", created_by: admin.user.id, tenant_id: tenant.id });
    expect(res.json.url).toMatch(/\/setup\/[A-Za-z0-9_-]{43}$/);
    const days = (Date.parse(res.json.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const stored = await (await db()).setupLink.findUniqueOrThrow({ where: { id: res.json.id } });
    expect(stored.tokenHash).not.toContain(res.json.url.split("/").pop());
    const list = await adminClient.get(base(tenant.id));
    expect(list.json.results.map((l: { id: string }) => l.id)).toEqual([res.json.id]);
    expect(list.text).not.toContain(res.json.url);
    expect((await adminClient.get(`${base(tenant.id)}/${res.json.id}`)).json).not.toHaveProperty("url");
    const [created] = await events(tenant.id, "setup_link.created");
    expect(created).toMatchObject({ actorId: admin.user.id, targetType: "setup_link", targetId: res.json.id });
  });

  test("bad input is a 400 naming the field; another tenant's link is 404", async () => {
    const { tenant, adminClient } = await steppedUpAdmin();
    const bad = await adminClient.post(base(tenant.id), { intent: "members" });
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].path).toBe("intent");
    const short = await adminClient.post(base(tenant.id), { intent: "sso", expires_in: 10 });
    expect(short.json.errors[0].path).toBe("expires_in");
    const wrongIntent = await adminClient.post(base(tenant.id), { intent: "domain_verification", sso_provider_id: tenant.id });
    expect(wrongIntent.json.errors[0].path).toBe("sso_provider_id");
    const notAProvider = await adminClient.post(base(tenant.id), { intent: "sso", sso_provider_id: tenant.id });
    expect(notAProvider.status).toBe(400);
    expect(notAProvider.json.errors[0].path).toBe("sso_provider_id");
    const other = await makeLink("sso");
    expect((await adminClient.get(`${base(tenant.id)}/${other.link.id}`)).status).toBe(404);
    expect((await adminClient.delete(`${base(other.tenant.id)}/${other.link.id}`)).status).toBe(404);
  });
});

describe("opening a link", () => {
  test("starts a 4-hour setup session; the opening is audited as the link, naming its creator", async () => {
    const { tenant, admin, link } = await makeLink("domain_verification");
    const opened = await open(link.url);
    expect(opened.location).toBe("/setup");
    expect(opened.cookie).toBeTruthy();
    const session = await (await db()).setupSession.findFirstOrThrow({ where: { linkId: link.id } });
    const hours = (session.expiresAt.getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(3.99);
    expect(hours).toBeLessThanOrEqual(4);
    const state = await call(opened.cookie!, "setup.state");
    expect(state.data).toMatchObject({ intent: "domain_verification", tenant: { id: tenant.id }, created_by_email: admin.user.email });
    const [event] = await events(tenant.id, "setup_link.opened");
    expect(event).toMatchObject({ actorId: `setup_link:${link.id}`, actorEmail: null });
    expect(event!.details).toMatchObject({ setup_link: { id: link.id, created_by_id: admin.user.id, created_by_email: admin.user.email } });
  });

  test("an expired link does not open (nor after it was used); an expired session is 401", async () => {
    const { link } = await makeLink("domain_verification");
    const first = await open(link.url);
    await (await db()).setupLink.update({ where: { id: link.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const again = await open(link.url);
    expect(again).toEqual({ location: "/setup?error=expired", cookie: null });
    // The session opened in time lasts its 4 hours; once they are over, it is gone.
    expect((await call(first.cookie!, "setup.state")).status).toBe(200);
    await (await db()).setupSession.updateMany({ where: { linkId: link.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await call(first.cookie!, "setup.state")).status).toBe(401);
    expect((await open(`${api.url}/setup/not-a-token`)).location).toBe("/setup?error=unknown");
  });

  test("revoking ends the link and its open sessions at once", async () => {
    const { tenant, adminClient, link } = await makeLink("domain_verification");
    const opened = await open(link.url);
    const revokedNow = await adminClient.delete(`${base(tenant.id)}/${link.id}`);
    expect(revokedNow.status).toBe(200);
    expect(revokedNow.json).toMatchObject({ setup_link: { id: link.id, state: "revoked" }, directory: null, directory_token: null });
    expect((await call(opened.cookie!, "setup.state")).status).toBe(401);
    expect((await open(link.url)).location).toBe("/setup?error=revoked");
    const got = await adminClient.get(`${base(tenant.id)}/${link.id}`);
    expect(got.json.state).toBe("revoked");
    const [revoked] = await events(tenant.id, "setup_link.revoked");
    expect(revoked!.details).toMatchObject({ sessions_ended: 1 });
    expect((await adminClient.delete(`${base(tenant.id)}/${link.id}`)).status).toBe(200);
    expect(await events(tenant.id, "setup_link.revoked")).toHaveLength(1);
  });
});

describe("what a link reaches", () => {
  test("a domain_verification link adds and verifies domains, audited as the link", async () => {
    const { tenant, admin, link } = await makeLink("domain_verification");
    const { cookie } = await open(link.url);
    const added = await call(cookie!, "setup.domains.add", { domain: `setup-${link.id.slice(0, 8)}.example.com` });
    expect(added.status).toBe(200);
    expect(added.data).toMatchObject({ tenant_id: tenant.id, state: "pending" });
    const listed = await call(cookie!, "setup.domains.list");
    expect(listed.data.map((d: { id: string }) => d.id)).toEqual([added.data.id]);
    const [event] = await events(tenant.id, "domain.created");
    expect(event).toMatchObject({ actorId: `setup_link:${link.id}` });
    expect(event!.details).toMatchObject({ setup_link: { id: link.id, created_by_email: admin.user.email } });
    const bad = await call(cookie!, "setup.domains.add", { domain: "*.example.com" });
    expect(bad.status).toBe(400);
  });

  test("a domain_verification link cannot reach SSO, members, tokens, webhooks or other intents (403), nor another tenant (404)", async () => {
    const { tenant, link } = await makeLink("domain_verification");
    const other = await tenantWithMembers();
    const { cookie } = await open(link.url);
    expect((await call(cookie!, "tenantSso.list", { tenant_id: tenant.id })).status).toBe(403);
    expect((await call(cookie!, "members.list", { tenant_id: tenant.id })).status).toBe(403);
    expect((await call(cookie!, "tokens.create", { name: "x" })).status).toBe(403);
    expect((await call(cookie!, "webhooks.list", { tenant_id: tenant.id })).status).toBe(403);
    expect((await call(cookie!, "setupLinks.create", { tenant_id: tenant.id, intent: "sso" })).status).toBe(403);
    expect((await call(cookie!, "account.me")).status).toBe(403);
    expect((await call(cookie!, "setup.sso.chooseIdp", { idp: "okta" })).status).toBe(403);
    expect((await call(cookie!, "members.list", { tenant_id: other.tenant.id })).status).toBe(404);
    // The console's own endpoint does not read the setup cookie, nor does REST take it as a bearer.
    expect((await call(cookie!, "tenantSso.list", { tenant_id: tenant.id }, "/api/trpc")).status).toBe(401);
    expect((await client(api.url, cookie!).get(`/api/v1/tenants/${tenant.id}/domains`)).status).toBe(401);
  });

  test("a link for tenant A used against tenant B's ids: 404", async () => {
    const { link } = await makeLink("domain_verification");
    const other = await makeLink("domain_verification");
    const theirs = await other.adminClient.post(`/api/v1/tenants/${other.tenant.id}/domains`, {
      domain: `b-${other.link.id.slice(0, 8)}.example.com`,
    });
    const { cookie } = await open(link.url);
    const res = await call(cookie!, "setup.domains.verify", { domain_id: theirs.json.id });
    expect(res.status).toBe(404);
  });

  test("a directory_sync link creates one directory, shows its token once, and watches the IdP's first requests", async () => {
    const { tenant, admin, link, adminClient } = await makeLink("directory_sync");
    const { cookie } = await open(link.url);
    const before = await call(cookie!, "setup.state");
    expect(before.data).toMatchObject({ intent: "directory_sync", directory: { directory: null } });
    expect((await call(cookie!, "setup.directory.create", { provider: "nope" })).status).toBe(400);
    const made = await call(cookie!, "setup.directory.create", { provider: "okta" });
    expect(made.status).toBe(200);
    expect(made.data.directory).toMatchObject({ tenant_id: tenant.id, provider: "okta", user_count: 0, last_request_at: null });
    expect(made.data.token).toMatch(/^scim_/);
    expect((await call(cookie!, "setup.directory.create", { provider: "okta" })).status).toBe(409);
    const state = await call(cookie!, "setup.directory.state");
    expect(state.data.directory.id).toBe(made.data.directory.id);
    expect(JSON.stringify(state.data)).not.toContain(made.data.token);
    const linkRow = await (await db()).setupLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(linkRow.directoryId).toBe(made.data.directory.id);

    // The IdP's first request shows in the live status.
    const scim = (token: string) => ({ authorization: `Bearer ${token}`, "content-type": "application/scim+json" });
    const url = new URL(made.data.directory.scim_base_url).pathname;
    const pushed = await fetch(new URL(`${url}/Users`, api.url), {
      method: "POST",
      headers: scim(made.data.token),
      body: JSON.stringify({
        schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
        userName: "ada@setup.example.com",
        name: { givenName: "Ada", familyName: "Lovelace" },
        emails: [{ value: "ada@setup.example.com", primary: true, type: "work" }],
        active: true,
      }),
    });
    expect(pushed.status).toBe(201);
    const after = await call(cookie!, "setup.directory.state");
    expect(after.data.directory).toMatchObject({ user_count: 1 });
    expect(after.data.directory.last_request_at).not.toBeNull();

    // A lost token is replaced: the old one stops working at once.
    const rotated = await call(cookie!, "setup.directory.rotateToken");
    expect(rotated.data.token).not.toBe(made.data.token);
    expect((await fetch(new URL(`${url}/Users`, api.url), { headers: scim(made.data.token) })).status).toBe(401);
    expect((await fetch(new URL(`${url}/Users`, api.url), { headers: scim(rotated.data.token) })).status).toBe(200);

    const [created] = await events(tenant.id, "directory.created");
    expect(created).toMatchObject({ actorId: `setup_link:${link.id}` });
    expect(created!.details).toMatchObject({ setup_link: { id: link.id, created_by_email: admin.user.email } });
    // The link reaches nothing else of Directory Sync: the admin's API is theirs.
    expect((await call(cookie!, "directories.list", { tenant_id: tenant.id })).status).toBe(403);
    expect((await call(cookie!, "setup.sso.chooseIdp", { idp: "okta" })).status).toBe(403);
    const listed = await adminClient.get(`/api/v1/tenants/${tenant.id}/setup-links/${link.id}`);
    expect(listed.json.directory_id).toBe(made.data.directory.id);
  });

  test("revoking a directory_sync link says its directory and token live on, and can rotate the token in the same step", async () => {
    const { tenant, admin, link, adminClient } = await makeLink("directory_sync");
    const { cookie } = await open(link.url);
    const made = await call(cookie!, "setup.directory.create", { provider: "okta" });
    const users = `${new URL(made.data.directory.scim_base_url).pathname}/Users`;
    const scimGet = async (token: string) =>
      (await fetch(new URL(users, api.url), { headers: { authorization: `Bearer ${token}` } })).status;
    const one = `${base(tenant.id)}/${link.id}`;

    // Rotating needs a step-up: a token that has none is refused, and the link stays live.
    const fresh = client(api.url, await createToken(admin.user.id));
    const refused = await fresh.delete(`${one}?rotate_directory_token=true`);
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe("step_up_required");
    expect((await adminClient.get(one)).json.state).toBe("active");

    const revoked = await fresh.delete(one);
    expect(revoked.status).toBe(200);
    expect(revoked.json).toMatchObject({
      setup_link: { state: "revoked" },
      directory: { id: made.data.directory.id, token_rotated: false, message: expect.stringContaining("keeps syncing") },
      directory_token: null,
    });
    // The IT admin's token still works after the link is revoked: the answer said so.
    expect(await scimGet(made.data.token)).toBe(200);

    const rotated = await adminClient.delete(`${one}?rotate_directory_token=true`);
    expect(rotated.status).toBe(200);
    expect(rotated.json.directory).toMatchObject({ token_rotated: true, token_hint: rotated.json.directory_token.slice(-4) });
    expect(await scimGet(made.data.token)).toBe(401);
    expect(await scimGet(rotated.json.directory_token)).toBe(200);
    const [event] = await events(tenant.id, "setup_link.revoked");
    expect(event!.details).toMatchObject({ directory_id: made.data.directory.id, directory_token_rotated: false });
    expect(await events(tenant.id, "directory.token_rotated")).toHaveLength(1);
  });

  test("a directory_sync link for an existing directory opens at its connection step; directory_id is checked", async () => {
    const { tenant, adminClient } = await steppedUpAdmin();
    const dir = await adminClient.post(`/api/v1/tenants/${tenant.id}/directories`, { name: "Corp", provider: "entra_id" });
    expect(dir.status).toBe(201);
    const wrong = await adminClient.post(base(tenant.id), { intent: "sso", directory_id: dir.json.id });
    expect(wrong.json.errors[0].path).toBe("directory_id");
    const notOurs = await adminClient.post(base(tenant.id), { intent: "directory_sync", directory_id: tenant.id });
    expect(notOurs.json.errors[0].path).toBe("directory_id");
    const res = await adminClient.post(base(tenant.id), { intent: "directory_sync", directory_id: dir.json.id });
    expect(res.status).toBe(201);
    expect(res.json.directory_id).toBe(dir.json.id);
    const { cookie } = await open(res.json.url);
    const state = await call(cookie!, "setup.directory.state");
    expect(state.data.directory).toMatchObject({ id: dir.json.id, provider: "entra_id" });
    expect((await call(cookie!, "setup.directory.create", { provider: "okta" })).status).toBe(409);
  });

  test("an sso link reserves the provider, creates it from the metadata, and enables it for verified domains only", async () => {
    const { tenant, link } = await makeLink("sso");
    const { cookie } = await open(link.url);
    const chosen = await call(cookie!, "setup.sso.chooseIdp", { idp: "generic_oidc" });
    expect(chosen.status).toBe(200);
    const reserved = chosen.data.sp.redirect_uri.match(/oidc\/([0-9a-f-]{36})\/callback$/)![1];
    expect(chosen.data).toMatchObject({ idp: "generic_oidc", provider: null });
    expect((await call(cookie!, "setup.sso.startTest")).status).toBe(409);
    const idpSide = {
      metadata_url: "https://idp.invalid/.well-known/openid-configuration",
      client_id: "setup-client",
      client_secret: "setup-secret",
    };
    // The IT admin names the provider (as the tenant's admins will see it), within the console's limit.
    const tooLong = await call(cookie!, "setup.sso.save", { ...idpSide, name: "x".repeat(101) });
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(tooLong.error)).toContain("name");
    const saved = await call(cookie!, "setup.sso.save", { ...idpSide, name: "  Acme sign-in  " });
    expect(saved.status).toBe(200);
    expect(saved.data.provider).toMatchObject({
      id: reserved,
      name: "Acme sign-in",
      provider_type: "oidc",
      enabled: false,
      client_secret_set: true,
    });
    // The IdP cannot change once the provider exists; the values pasted there stay true.
    expect((await call(cookie!, "setup.sso.chooseIdp", { idp: "okta" })).status).toBe(400);
    const [created] = await events(tenant.id, "sso_provider.created");
    expect(created).toMatchObject({ actorId: `setup_link:${link.id}`, targetId: reserved });
    const started = await call(cookie!, "setup.sso.startTest");
    expect(started.status).toBe(200);
    expect(started.setCookie).toMatch(/^cp_sso_binding=/);
    const domain = `setup-${link.id.slice(0, 8)}.example`;
    expect((await call(cookie!, "setup.sso.enable", { domains: [domain] })).status).toBe(400);
    await verifiedDomains(tenant.id, [domain]);
    const enabled = await call(cookie!, "setup.sso.enable", { domains: [domain] });
    expect(enabled.status).toBe(200);
    expect(enabled.data.provider).toMatchObject({ enabled: true, domains: [domain] });
    // The link works on its own provider only: the tenant's other providers are not in its state.
    const row = await (await db()).setupLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(row.ssoProviderId).toBe(reserved);
  });

  test("an sso link's provider is named after the IdP when the IT admin gives no name", async () => {
    const { link } = await makeLink("sso");
    const { cookie } = await open(link.url);
    expect((await call(cookie!, "setup.sso.chooseIdp", { idp: "generic_saml" })).status).toBe(200);
    const saved = await call(cookie!, "setup.sso.save", { metadata_url: "https://idp.invalid/saml/metadata.xml" });
    expect(saved.status).toBe(200);
    expect(saved.data.provider).toMatchObject({ name: "SAML 2.0", provider_type: "saml", enabled: false });
  });

  test("an sso link made for an existing provider opens at its metadata update", async () => {
    const { tenant, adminClient } = await steppedUpAdmin();
    const provider = await adminClient.post(`/api/v1/tenants/${tenant.id}/sso`, {
      provider_type: "oidc",
      name: "Existing",
      metadata_url: "https://idp.invalid/.well-known/openid-configuration",
      enabled: false,
    });
    expect(provider.status).toBe(201);
    const res = await adminClient.post(base(tenant.id), { intent: "sso", sso_provider_id: provider.json.id });
    expect(res.status).toBe(201);
    const { cookie } = await open(res.json.url);
    const state = await call(cookie!, "setup.state");
    expect(state.data.sso).toMatchObject({ updating: true, provider: { id: provider.json.id } });
  });
});
