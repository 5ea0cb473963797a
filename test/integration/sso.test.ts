import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, createUser, db, tenantWithMembers, verifiedDomains } from "../support/fixtures.ts";
import { startIdpServer, type IdpServer } from "../support/idp-server.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";

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
const events = async (tenantId: string, type: string) => (await db()).auditEvent.findMany({ where: { tenantId, eventType: type } });

async function setup() {
  const world = await tenantWithMembers();
  const base = `/api/v1/tenants/${world.tenant.id}/sso`;
  return {
    ...world,
    base,
    admin: client(api.url, world.admin.token),
    adminToken: world.admin.token,
    viewerClient: client(api.url, world.viewer.token),
  };
}

describe("creating SSO providers", () => {
  test.each([
    ["saml", "SAML metadata"],
    ["oidc", "OIDC"],
    ["google_workspace", "Google"],
    ["azure_ad", "Azure"],
  ])("creates a %s provider; its metadata is checked after the reply", async (type, name) => {
    const { base, admin, tenant } = await setup();
    const url = type === "saml" ? samlUrl() : oidcUrl();
    const domain = `${type.replace("_", "-")}-${randomUUID().slice(0, 8)}.example.com`;
    await verifiedDomains(tenant.id, [domain]);
    const res = await admin.post(base, { provider_type: type, name, metadata_url: url, domains: [domain.toUpperCase()] });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      tenant_id: tenant.id,
      provider_type: type,
      name,
      metadata_url: url,
      enabled: true,
      domains: [domain],
      metadata: { status: "pending" },
    });
    expect(res.headers.get("location")).toBe(`${api.url}${base}/${res.json.id}`);
    await metadataChecksIdle();
    const after = await admin.get(`${base}/${res.json.id}`);
    expect(after.json.metadata).toMatchObject({ status: "valid", error: null });
    if (type === "saml")
      expect(after.json.metadata).toMatchObject({ entity_id: "https://idp.example.test/saml", certificate_expires_at: expect.any(String) });
    else expect(after.json.metadata.issuer).toBe("https://login.example.test");
    const created = await events(tenant.id, "sso_provider.created");
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ targetId: res.json.id, details: { provider_type: type, domains: [domain] } });
  });

  test("an unreachable metadata URL does not block the create", async () => {
    const { base, admin } = await setup();
    const res = await admin.post(base, { provider_type: "saml", name: "Down", metadata_url: `${idp.url}/error` });
    expect(res.status).toBe(201);
    await metadataChecksIdle();
    expect((await admin.get(`${base}/${res.json.id}`)).json.metadata.status).toBe("unreachable");
  });

  test.each([
    [{ name: "x", metadata_url: "https://idp.example/x" }, "provider_type"],
    [{ provider_type: "ldap", name: "x", metadata_url: "https://idp.example/x" }, "provider_type"],
    [{ provider_type: "saml", metadata_url: "https://idp.example/x" }, "name"],
    [{ provider_type: "saml", name: "", metadata_url: "https://idp.example/x" }, "name"],
    [{ provider_type: "saml", name: "x".repeat(101), metadata_url: "https://idp.example/x" }, "name"],
    [{ provider_type: "saml", name: "x" }, "metadata_url"],
    [{ provider_type: "saml", name: "x", metadata_url: "not a url" }, "metadata_url"],
    [{ provider_type: "saml", name: "x", metadata_url: "ftp://idp.example/x" }, "metadata_url"],
    [{ provider_type: "saml", name: "x", metadata_url: "https://idp.example/x", enabled: "false" }, "enabled"],
    [{ provider_type: "saml", name: "x", metadata_url: "https://idp.example/x", domains: ["not a domain"] }, "domains.0"],
    [{ provider_type: "saml", name: "x", metadata_url: "https://idp.example/x", domains: ["a.com", "A.com"] }, "domains"],
    [{ provider_type: "saml", name: "x", metadata_url: "https://idp.example/x", domains: "a.com" }, "domains"],
  ])("400 naming the field for %o", async (body, field) => {
    const { base, admin } = await setup();
    const res = await admin.post(base, body);
    expect(res.status).toBe(400);
    expect(res.json.errors.map((e: { path: string }) => e.path)).toContain(field);
  });

  test("a domain already routed to another provider of the tenant is 409; another tenant may have it only disabled", async () => {
    const a = await setup();
    const b = await setup();
    const domain = `acme-${randomUUID().slice(0, 8)}.test`;
    await verifiedDomains(a.tenant.id, [domain]);
    expect((await a.admin.post(a.base, { provider_type: "saml", name: "One", metadata_url: samlUrl(), domains: [domain] })).status).toBe(
      201,
    );
    const clash = await a.admin.post(a.base, {
      provider_type: "oidc",
      name: "Two",
      metadata_url: oidcUrl(),
      domains: [domain.toUpperCase()],
    });
    expect(clash.status).toBe(409);
    expect(clash.json.detail).toContain(domain);
    expect(clash.json.errors).toEqual([{ path: "domains.0", message: "is already routed to another SSO provider" }]);
    const enabledElsewhere = await b.admin.post(b.base, {
      provider_type: "saml",
      name: "Elsewhere",
      metadata_url: samlUrl(),
      domains: [domain],
    });
    // B has not verified it (and cannot: A has): an enabled provider of B may not route it.
    expect(enabledElsewhere.status).toBe(400);
    expect(enabledElsewhere.json.errors).toEqual([{ path: "domains.0", message: "is not a verified domain of this tenant" }]);
    const disabled = { provider_type: "saml", name: "Elsewhere", metadata_url: samlUrl(), domains: [domain], enabled: false };
    expect((await b.admin.post(b.base, disabled)).status).toBe(201);
  });

  test("an idempotent create makes one provider", async () => {
    const { base, admin, tenant } = await setup();
    const key = randomUUID();
    const body = { provider_type: "saml", name: "Once", metadata_url: samlUrl() };
    const [a, b] = [await admin.post(base, body, { "idempotency-key": key }), await admin.post(base, body, { "idempotency-key": key })];
    expect(a.status).toBe(201);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(b.json.id).toBe(a.json.id);
    expect(await (await db()).ssoProvider.count({ where: { tenantId: tenant.id } })).toBe(1);
  });

  test("lists paginate like every list", async () => {
    const { base, admin } = await setup();
    for (let i = 0; i < 5; i++) await admin.post(base, { provider_type: "oidc", name: `P${i}`, metadata_url: oidcUrl() });
    const first = await admin.get(`${base}?page_size=2`);
    expect(first.json.count).toBe(5);
    expect(first.json.results.map((p: { name: string }) => p.name)).toEqual(["P4", "P3"]);
    const second = await admin.get(first.json.next);
    expect(second.json.results.map((p: { name: string }) => p.name)).toEqual(["P2", "P1"]);
  });
});

describe("enabling and disabling", () => {
  test("enabling needs admin; disabling needs admin + step-up (401 with the RFC 9470 challenge before it)", async () => {
    const { base, admin, tenant, viewerClient } = await setup();
    const created = await admin.post(base, { provider_type: "saml", name: "Toggle", metadata_url: samlUrl(), enabled: false });
    expect(created.json.enabled).toBe(false);
    const one = `${base}/${created.json.id}`;

    expect((await viewerClient.patch(one, { enabled: true })).status).toBe(403);
    const enabled = await admin.patch(one, { enabled: true });
    expect(enabled.status).toBe(200);
    expect(enabled.json.enabled).toBe(true);

    const refused = await admin.patch(one, { enabled: false });
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe("step_up_required");
    expect(refused.headers.get("www-authenticate")).toBe('Bearer error="insufficient_user_authentication", max_age=600');
    expect((await admin.get(one)).json.enabled).toBe(true);

    expect((await admin.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
    const disabled = await admin.patch(one, { enabled: false });
    expect(disabled.status).toBe(200);
    expect(disabled.json.enabled).toBe(false);

    expect(await events(tenant.id, "sso_provider.enabled")).toHaveLength(1);
    const disabledEvents = await events(tenant.id, "sso_provider.disabled");
    expect(disabledEvents).toHaveLength(1);
    expect(disabledEvents[0]!.details).toMatchObject({ changes: { enabled: { from: true, to: false } } });
  });

  test("PATCH changes fields with one .updated event naming them; a new URL is checked again", async () => {
    const { base, admin, tenant } = await setup();
    const created = await admin.post(base, { provider_type: "saml", name: "Old", metadata_url: samlUrl() });
    await metadataChecksIdle();
    expect((await admin.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
    await verifiedDomains(tenant.id, ["new.test"]);
    const res = await admin.patch(`${base}/${created.json.id}`, { name: "New", metadata_url: `${idp.url}/xxe.xml`, domains: ["new.test"] });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: "New", domains: ["new.test"], metadata: { status: "pending" } });
    await metadataChecksIdle();
    expect((await admin.get(`${base}/${created.json.id}`)).json.metadata.status).toBe("invalid");
    const updated = await events(tenant.id, "sso_provider.updated");
    expect(updated).toHaveLength(1);
    expect(Object.keys((updated[0]!.details as { changes: object }).changes).sort()).toEqual(["domains", "metadata_url", "name"]);
  });

  test("refresh-metadata re-runs the check and answers the result", async () => {
    const { base, admin } = await setup();
    const created = await admin.post(base, { provider_type: "saml", name: "Refresh", metadata_url: samlUrl() });
    await metadataChecksIdle();
    await (await db()).ssoProvider.update({ where: { id: created.json.id }, data: { metadataStatus: "unreachable" } });
    const res = await admin.post(`${base}/${created.json.id}/refresh-metadata`);
    expect(res.status).toBe(200);
    expect(res.json.metadata.status).toBe("valid");
  });

  test("delete needs step-up; then 204, gone, and sso_provider.deleted", async () => {
    const { base, admin, tenant } = await setup();
    await verifiedDomains(tenant.id, ["doomed.test"]);
    const created = await admin.post(base, { provider_type: "oidc", name: "Doomed", metadata_url: oidcUrl(), domains: ["doomed.test"] });
    const one = `${base}/${created.json.id}`;
    expect((await admin.delete(one)).status).toBe(401);
    await admin.post("/api/v1/auth/step-up", { password: "admin-password" });
    expect((await admin.delete(one)).status).toBe(204);
    expect((await admin.get(one)).status).toBe(404);
    expect(await events(tenant.id, "sso_provider.deleted")).toHaveLength(1);
    // Its domains are free again.
    expect(
      (await admin.post(base, { provider_type: "oidc", name: "Reborn", metadata_url: oidcUrl(), domains: ["doomed.test"] })).status,
    ).toBe(201);
  });
});

describe("/api/v1/sso: the tenant from the token", () => {
  test("a tenant-scoped token, or a single-tenant user, works without naming the tenant", async () => {
    const { tenant, admin: adminWorld } = await tenantWithMembers();
    const api1 = client(api.url, adminWorld.token);
    const res = await api1.post("/api/v1/sso", { provider_type: "saml", name: "Implied", metadata_url: samlUrl() });
    expect(res.status).toBe(201);
    expect(res.json.tenant_id).toBe(tenant.id);
    expect((await api1.get("/api/v1/sso")).json.results.map((p: { id: string }) => p.id)).toEqual([res.json.id]);
    expect((await api1.patch(`/api/v1/sso/${res.json.id}`, { name: "Renamed" })).json.name).toBe("Renamed");

    const scoped = client(api.url, await createToken(adminWorld.user.id, { tenantId: tenant.id }));
    expect((await scoped.get(`/api/v1/sso/${res.json.id}`)).status).toBe(200);
  });

  test("a caller in several tenants must name one: 400 tenant_required", async () => {
    const a = await tenantWithMembers();
    const b = await tenantWithMembers();
    const user = await createUser();
    await (
      await db()
    ).membership.createMany({
      data: [
        { tenantId: a.tenant.id, userId: user.id, role: "admin" },
        { tenantId: b.tenant.id, userId: user.id, role: "admin" },
      ],
    });
    const res = await client(api.url, await createToken(user.id)).get("/api/v1/sso");
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("tenant_required");
  });
});
