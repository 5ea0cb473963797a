/**
 * Every action that emits an event yields exactly one event of its kind in the tenant's log, with
 * the right actor, address, user agent, target and details (webhook.* kinds: see webhooks tests).
 * Requests come from 127.0.0.1 without X-Forwarded-For (TRUST_PROXY is off here).
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, operator, tenantWithMembers } from "../support/fixtures.ts";
import { database } from "../../server/db/client.ts";
import { signIn } from "../../server/account/login.ts";
import { requestInfo } from "../../server/contract/request.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";

const UA = "audit-kinds-test/1.0";
const SSO_BODY = { provider_type: "saml", name: "Kinds IdP", metadata_url: "https://idp.invalid/metadata.xml" };

const api = apiServer();
let reader: string;
beforeAll(async () => {
  reader = (await operator()).token;
});
afterAll(async () => {
  await metadataChecksIdle();
});

const as = (token: string) => {
  const c = client(api.url, token);
  const headers = { "user-agent": UA };
  return {
    get: (path: string) => c.get(path, headers),
    post: (path: string, body?: unknown) => c.post(path, body ?? {}, headers),
    patch: (path: string, body: unknown) => c.patch(path, body, headers),
    delete: (path: string) => c.delete(path, headers),
  };
};

/** The one event of `kind` in the tenant's log, read through the audit API. */
async function onlyEvent(tenantId: string, kind: string) {
  const res = await client(api.url, reader).get(`/api/v1/tenants/${tenantId}/audit?event_type=${kind}`);
  expect(res.status, res.text).toBe(200);
  expect(res.json.count, `${kind} events`).toBe(1);
  const event = res.json.results[0];
  expect(event.tenant_id).toBe(tenantId);
  expect(event.event_type).toBe(kind);
  return event;
}

const by = (user: { id: string; email: string }) => ({
  actor: { id: user.id, email: user.email },
  metadata: { ip_address: "127.0.0.1", user_agent: UA },
});

async function setup() {
  const world = await tenantWithMembers();
  return { ...world, base: `/api/v1/tenants/${world.tenant.id}`, admin: { ...world.admin, api: as(world.admin.token) } };
}

test("tenant.created", async () => {
  const op = await operator();
  const res = await as(op.token).post("/api/v1/tenants", { name: "Kinds Tenant" });
  expect(res.status).toBe(201);
  expect(await onlyEvent(res.json.id, "tenant.created")).toMatchObject({
    ...by(op.user),
    target: { type: "tenant", id: res.json.id },
    details: { name: "Kinds Tenant" },
  });
});

// By an operator: a tenant admin's POST …/members invites (invitation.created), whether or not the email is new.
test("user.created", async () => {
  const { base, tenant } = await setup();
  const op = await operator();
  const res = await as(op.token).post(`${base}/members`, { email: "new-member@example.com", role: "viewer" });
  expect(res.status, res.text).toBe(201);
  expect(await onlyEvent(tenant.id, "user.created")).toMatchObject({
    ...by(op.user),
    target: { type: "user", id: res.json.user_id },
    details: { email: "new-member@example.com", role: "viewer", new_user: true },
  });
});

test("user.updated", async () => {
  const { base, tenant, admin, viewer } = await setup();
  expect((await admin.api.patch(`${base}/members/${viewer.user.id}`, { role: "admin" })).status).toBe(200);
  expect(await onlyEvent(tenant.id, "user.updated")).toMatchObject({
    ...by(admin.user),
    target: { type: "user", id: viewer.user.id },
    details: { email: viewer.user.email, changes: { role: { from: "viewer", to: "admin" } } },
  });
});

test("user.removed", async () => {
  const { base, tenant, admin, viewer } = await setup();
  expect((await admin.api.delete(`${base}/members/${viewer.user.id}`)).status).toBe(204);
  expect(await onlyEvent(tenant.id, "user.removed")).toMatchObject({
    ...by(admin.user),
    target: { type: "user", id: viewer.user.id },
    details: { email: viewer.user.email, role: "viewer" },
  });
});

/** What Next hands the sign-in callback for a browser on this machine. */
const browser = () =>
  requestInfo(new Request("http://127.0.0.1/login", { headers: { "x-forwarded-for": "127.0.0.1", "user-agent": UA } }), "kinds");

test("user.login", async () => {
  const { tenant, admin } = await setup();
  expect(await signIn(await database(), browser(), admin.user.email, "admin-password")).toMatchObject({ ok: true });
  expect(await onlyEvent(tenant.id, "user.login")).toMatchObject({
    ...by(admin.user),
    target: { type: "user", id: admin.user.id },
    details: { method: "password" },
  });
});

test("user.login_failed", async () => {
  const { tenant, admin } = await setup();
  expect(await signIn(await database(), browser(), admin.user.email, "wrong-password")).toMatchObject({ ok: false });
  const event = await onlyEvent(tenant.id, "user.login_failed");
  expect(event).toMatchObject({
    ...by(admin.user),
    target: { type: "user", id: admin.user.id },
    details: { email: admin.user.email, reason: "wrong_password" },
  });
  expect(JSON.stringify(event)).not.toContain("wrong-password");
});

test("user.step_up", async () => {
  const { tenant, admin } = await setup();
  expect((await admin.api.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
  const event = await onlyEvent(tenant.id, "user.step_up");
  expect(event).toMatchObject(by(admin.user));
  expect(JSON.stringify(event)).not.toContain("admin-password");
});

test.each([
  ["sso_provider.created", {}],
  [
    "sso_provider.updated",
    { patch: { name: "Renamed IdP" }, details: { name: "Renamed IdP", changes: { name: { from: "Kinds IdP", to: "Renamed IdP" } } } },
  ],
  ["sso_provider.disabled", { patch: { enabled: false }, stepUp: true }],
  ["sso_provider.enabled", { create: { enabled: false }, patch: { enabled: true } }],
  ["sso_provider.deleted", { remove: true, stepUp: true }],
] as const)("%s", async (kind, plan) => {
  const { base, tenant, admin } = await setup();
  const step = plan as { create?: object; patch?: object; remove?: boolean; stepUp?: boolean; details?: object };
  const created = await admin.api.post(`${base}/sso`, { ...SSO_BODY, ...step.create });
  expect(created.status, created.text).toBe(201);
  if (step.stepUp) expect((await admin.api.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
  const one = `${base}/sso/${created.json.id}`;
  if (step.patch) expect((await admin.api.patch(one, step.patch)).status).toBe(200);
  if (step.remove) expect((await admin.api.delete(one)).status).toBe(204);
  const event = await onlyEvent(tenant.id, kind);
  expect(event).toMatchObject({ ...by(admin.user), target: { type: "sso_provider", id: created.json.id } });
  if (kind === "sso_provider.created")
    expect(event.details).toMatchObject({ name: "Kinds IdP", provider_type: "saml", metadata_url: SSO_BODY.metadata_url });
  if (kind === "sso_provider.deleted") expect(event.details).toMatchObject({ name: "Kinds IdP", provider_type: "saml" });
  if (step.details) expect(event.details).toMatchObject(step.details);
});

test("api_token.created and api_token.revoked", async () => {
  const { tenant, admin } = await setup();
  const created = await admin.api.post("/api/v1/tokens", { name: "kinds token", tenant_id: tenant.id, read_only: true });
  expect(created.status, created.text).toBe(201);
  const details = { name: "kinds token", user_id: admin.user.id, tenant_id: tenant.id };
  const made = await onlyEvent(tenant.id, "api_token.created");
  expect(made).toMatchObject({
    ...by(admin.user),
    target: { type: "api_token", id: created.json.id },
    details: { ...details, read_only: true },
  });
  expect(JSON.stringify(made)).not.toContain(created.json.token);
  expect((await admin.api.delete(`/api/v1/tokens/${created.json.id}`)).status).toBe(204);
  expect(await onlyEvent(tenant.id, "api_token.revoked")).toMatchObject({
    ...by(admin.user),
    target: { type: "api_token", id: created.json.id },
    details,
  });
});

test("audit.exported", async () => {
  const { base, tenant, viewer } = await setup();
  const res = await as(viewer.token).get(`${base}/audit/export?format=csv&event_type=user.*`);
  expect(res.status).toBe(200);
  expect(await onlyEvent(tenant.id, "audit.exported")).toMatchObject({
    ...by(viewer.user),
    target: { type: "tenant", id: tenant.id },
    details: { format: "csv", filters: { event_type: "user.*" } },
  });
});
