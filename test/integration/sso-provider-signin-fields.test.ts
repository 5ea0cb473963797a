/**
 * What SSO sign-in added to providers over REST: the protocol read from the document, our side of
 * the provider (sp), OIDC client credentials (the secret write-only), default_role,
 * allow_idp_initiated, and email domains unique platform-wide among enabled providers.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { apiServer } from "../support/api-server.ts";
import { client, db, tenantWithMembers, verifiedDomains } from "../support/fixtures.ts";
import { startIdpServer, type IdpServer } from "../support/idp-server.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";
import { appUrl } from "../../server/env.ts";

const api = apiServer();
let idp: IdpServer;
beforeAll(async () => {
  idp = await startIdpServer();
});
afterAll(async () => {
  await metadataChecksIdle();
  await idp.close();
});

const samlUrl = () => `${idp.url}/saml.xml`;
const oidcUrl = () => `${idp.url}/.well-known/openid-configuration`;
const uniqueDomain = () => `d-${randomUUID().slice(0, 8)}.example`;
const SECRET = "s3cr3t-value-that-must-never-come-back";

async function setup() {
  const world = await tenantWithMembers();
  const base = `/api/v1/tenants/${world.tenant.id}/sso`;
  const admin = client(api.url, world.admin.token);
  const stepUp = () => admin.post("/api/v1/auth/step-up", { password: "admin-password" });
  return { ...world, base, admin, stepUp };
}

describe("protocol and our side of the provider", () => {
  test.each([
    ["saml", "saml.xml", "saml"],
    ["oidc", ".well-known/openid-configuration", "oidc"],
    ["azure_ad", "saml.xml", "saml"],
    ["azure_ad", ".well-known/openid-configuration", "oidc"],
    ["google_workspace", "saml.xml", "saml"],
    ["google_workspace", ".well-known/openid-configuration", "oidc"],
  ])(
    "%s with %s is %s (Entra/Google SAML metadata no longer fails as 'not JSON'); sp names what the IdP admin pastes",
    async (type, path, protocol) => {
      const { base, admin } = await setup();
      const res = await admin.post(base, { provider_type: type, name: "P", metadata_url: `${idp.url}/${path}` });
      expect(res.status).toBe(201);
      await metadataChecksIdle();
      const got = (await admin.get(`${base}/${res.json.id}`)).json;
      expect(got.metadata.status).toBe("valid");
      expect(got.protocol).toBe(protocol);
      const id = res.json.id as string;
      expect(got.sp).toEqual(
        protocol === "saml"
          ? {
              entity_id: `${appUrl()}/api/sso/saml/${id}/metadata`,
              acs_url: `${appUrl()}/api/sso/saml/${id}/acs`,
              metadata_url: `${appUrl()}/api/sso/saml/${id}/metadata`,
            }
          : { redirect_uri: `${appUrl()}/api/sso/oidc/${id}/callback` },
      );
      expect(got).toMatchObject({ default_role: "viewer", allow_idp_initiated: false, client_id: null, client_secret_set: false });
    },
  );
});

describe("OIDC client credentials", () => {
  test("client_secret is write-only: never in a reply, a list, or the audit trail", async () => {
    const { base, admin, tenant } = await setup();
    const res = await admin.post(base, {
      provider_type: "oidc",
      name: "O",
      metadata_url: oidcUrl(),
      client_id: "cp-client",
      client_secret: SECRET,
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ client_id: "cp-client", client_secret_set: true });
    const rotated = await admin.patch(`${base}/${res.json.id}`, { client_secret: `${SECRET}-2` });
    expect(rotated.json.client_secret_set).toBe(true);
    const list = await admin.get(base);
    const row = await (await db()).ssoProvider.findUniqueOrThrow({ where: { id: res.json.id } });
    const events = await (await db()).auditEvent.findMany({ where: { tenantId: tenant.id } });
    for (const text of [
      res.text,
      rotated.text,
      list.text,
      (await admin.get(`${base}/${res.json.id}`)).text,
      JSON.stringify(events, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v)),
    ]) {
      expect(text).not.toContain(SECRET);
    }
    expect(row.clientSecretCiphertext).toMatch(/^v1\./);
    expect(row.clientSecretCiphertext).not.toContain(SECRET);
    const updated = events.find((e) => e.eventType === "sso_provider.updated");
    expect(updated?.details).toMatchObject({ changes: { client_secret: { from: "set", to: "changed" } } });
    // Removing the client ID changes which client the IdP sees: it needs a step-up.
    expect((await admin.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
    const cleared = await admin.patch(`${base}/${res.json.id}`, { client_secret: null, client_id: null });
    expect(cleared.json).toMatchObject({ client_id: null, client_secret_set: false });
  });

  test.each([
    [{ client_id: "" }, "client_id"],
    [{ client_secret: 42 }, "client_secret"],
    [{ client_secret: "x".repeat(1025) }, "client_secret"],
    [{ default_role: "owner" }, "default_role"],
    [{ allow_idp_initiated: "yes" }, "allow_idp_initiated"],
  ])("400 naming the field for %o", async (extra, field) => {
    const { base, admin } = await setup();
    const res = await admin.post(base, { provider_type: "oidc", name: "O", metadata_url: oidcUrl(), ...extra });
    expect(res.status).toBe(400);
    expect(res.json.errors.map((e: { path: string }) => e.path)).toContain(field);
  });

  test("client credentials on a SAML provider are a 400 naming the field", async () => {
    const { base, admin } = await setup();
    const res = await admin.post(base, { provider_type: "saml", name: "S", metadata_url: samlUrl(), client_secret: SECRET });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([{ path: "client_secret", message: "is only for OIDC providers" }]);
  });

  test("default_role and allow_idp_initiated are set on create and by PATCH, and audited", async () => {
    const { base, admin, tenant, stepUp } = await setup();
    const res = await admin.post(base, {
      provider_type: "saml",
      name: "S",
      metadata_url: samlUrl(),
      default_role: "admin",
      allow_idp_initiated: true,
    });
    expect(res.json).toMatchObject({ default_role: "admin", allow_idp_initiated: true });
    await stepUp();
    const patched = await admin.patch(`${base}/${res.json.id}`, { default_role: "viewer", allow_idp_initiated: false });
    expect(patched.json).toMatchObject({ default_role: "viewer", allow_idp_initiated: false });
    const [updated] = await (await db()).auditEvent.findMany({ where: { tenantId: tenant.id, eventType: "sso_provider.updated" } });
    expect(updated?.details).toMatchObject({
      changes: { default_role: { from: "admin", to: "viewer" }, allow_idp_initiated: { from: true, to: false } },
    });
  });
});

// Only one tenant can verify a domain, but domains providers routed before verification existed
// stay pending in each tenant that had them (routes_while_pending): the platform-wide rule holds there.
describe("a domain belongs to one enabled provider on the whole platform", () => {
  test("create, PATCH domains and enable are each a 409 naming the domain", async () => {
    const a = await setup();
    const b = await setup();
    const domain = uniqueDomain();
    await verifiedDomains(a.tenant.id, [domain], { legacy: true });
    await verifiedDomains(b.tenant.id, [domain, "other.example"], { legacy: true });
    expect((await a.admin.post(a.base, { provider_type: "saml", name: "A", metadata_url: samlUrl(), domains: [domain] })).status).toBe(201);

    const create = await b.admin.post(b.base, {
      provider_type: "saml",
      name: "B",
      metadata_url: samlUrl(),
      domains: ["other.example", domain],
    });
    expect(create.status).toBe(409);
    expect(create.json).toMatchObject({ code: "conflict", detail: `Domain ${domain} is already routed to an enabled SSO provider` });
    expect(create.json.errors).toEqual([{ path: "domains.1", message: "is already routed to an enabled SSO provider" }]);

    const otherDomain = uniqueDomain();
    await verifiedDomains(b.tenant.id, [otherDomain]);
    const other = await b.admin.post(b.base, { provider_type: "saml", name: "B", metadata_url: samlUrl(), domains: [otherDomain] });
    await b.stepUp();
    const patch = await b.admin.patch(`${b.base}/${other.json.id}`, { domains: [domain] });
    expect(patch.status).toBe(409);
    expect(patch.json.detail).toContain(domain);

    const disabled = await b.admin.post(b.base, {
      provider_type: "saml",
      name: "B off",
      metadata_url: samlUrl(),
      domains: [domain],
      enabled: false,
    });
    expect(disabled.status).toBe(201);
    const enable = await b.admin.patch(`${b.base}/${disabled.json.id}`, { enabled: true });
    expect(enable.status).toBe(409);
    expect(enable.json.detail).toContain(domain);
    expect((await b.admin.get(`${b.base}/${disabled.json.id}`)).json.enabled).toBe(false);

    // A disables theirs (step-up): now B may enable.
    await a.stepUp();
    const [provider] = (await a.admin.get(a.base)).json.results;
    expect((await a.admin.patch(`${a.base}/${provider.id}`, { enabled: false })).status).toBe(200);
    expect((await b.admin.patch(`${b.base}/${disabled.json.id}`, { enabled: true })).status).toBe(200);
  });

  test("under concurrency exactly one of several tenants enabling the same domain wins", async () => {
    const worlds = await Promise.all(Array.from({ length: 5 }, () => setup()));
    const domain = uniqueDomain();
    for (const w of worlds) await verifiedDomains(w.tenant.id, [domain], { legacy: true });
    const providers = await Promise.all(
      worlds.map((w) =>
        w.admin.post(w.base, { provider_type: "saml", name: "Race", metadata_url: samlUrl(), domains: [domain], enabled: false }),
      ),
    );
    const results = await Promise.all(worlds.map((w, i) => w.admin.patch(`${w.base}/${providers[i]!.json.id}`, { enabled: true })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await (await db()).ssoDomain.count({ where: { domain, enabled: true } })).toBe(1);
  });

  test("the database itself refuses a second enabled provider for a domain", async () => {
    const a = await setup();
    const b = await setup();
    const domain = uniqueDomain();
    await verifiedDomains(a.tenant.id, [domain], { legacy: true });
    await a.admin.post(a.base, { provider_type: "saml", name: "A", metadata_url: samlUrl(), domains: [domain] });
    const off = await b.admin.post(b.base, {
      provider_type: "saml",
      name: "B",
      metadata_url: samlUrl(),
      domains: [domain],
      enabled: false,
    });
    const prisma = await db();
    await expect(prisma.ssoProvider.update({ where: { id: off.json.id }, data: { enabled: true } })).rejects.toThrow();
    expect(await prisma.ssoDomain.count({ where: { domain, enabled: true } })).toBe(1);
  });
});
