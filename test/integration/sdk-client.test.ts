/**
 * The SDK (sdk/) against the real test server: every method group's calls, each with a happy path
 * and a problem error as a ControlPlaneError (status, code, detail, fields, request id), and
 * auto-pagination over more than one page, by `next` links and by the audit log's cursor.
 */
import { afterAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { apiServer } from "../support/api-server.ts";
import { operator, tenantWithMembers } from "../support/fixtures.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";
import { ControlPlane, ControlPlaneError } from "../../sdk/src/index.ts";

const api = apiServer();
afterAll(async () => {
  await metadataChecksIdle();
});

const sdk = (token: string) => new ControlPlane({ baseUrl: api.url, token, retry: false });

/** The ControlPlaneError `call` rejects with. */
async function problem(call: Promise<unknown>): Promise<ControlPlaneError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ControlPlaneError);
  return error as ControlPlaneError;
}

async function world() {
  const members = await tenantWithMembers();
  return { ...members, admin: sdk(members.admin.token), viewer: sdk(members.viewer.token), tenantId: members.tenant.id };
}

describe("tenants, members, tokens, me", () => {
  test("an operator creates and reads a tenant; a 400 names the field", async () => {
    const cp = sdk((await operator()).token);
    const created = await cp.tenants.create({ name: `SDK ${randomUUID().slice(0, 6)}` });
    expect(await cp.tenants.get(created.id)).toEqual(created);
    const bad = await problem(cp.tenants.create({ name: "" }));
    expect(bad).toMatchObject({ status: 400, code: "invalid_request" });
    expect(bad.fields.map((f) => f.path)).toEqual(["name"]);
    expect(bad.requestId).toMatch(/\S/);
    expect(bad.detail).toMatch(/name/);
  });

  test("members: add, get, update, list, remove; a viewer is refused 403", async () => {
    const { admin, viewer, tenantId } = await world();
    const email = `sdk-${randomUUID().slice(0, 8)}@example.com`;
    // Only an operator sets a new member's password (an admin invites); the operator acts as admin.
    const added = await sdk((await operator()).token).members.add(tenantId, { email, role: "viewer", password: "a-long-password-1" });
    expect(added).toMatchObject({ email, role: "viewer" });
    const userId = (added as { user_id: string }).user_id;
    expect(await admin.members.get(tenantId, userId)).toMatchObject({ email });
    expect(await admin.members.update(tenantId, userId, { role: "admin" })).toMatchObject({ role: "admin" });
    expect((await admin.members.list(tenantId).toArray()).map((m) => m.email)).toContain(email);
    await admin.members.remove(tenantId, userId);
    expect(await problem(admin.members.get(tenantId, userId))).toMatchObject({ status: 404, code: "not_found" });
    expect(await problem(viewer.members.add(tenantId, { email: `x-${email}`, role: "viewer" }))).toMatchObject({
      status: 403,
      code: "forbidden",
    });
  });

  test("tokens: create (value shown once), list, revoke; me; step-up with a wrong password is 401", async () => {
    const { admin, tenantId } = await world();
    const made = await admin.tokens.create({ name: "ci", tenant_id: tenantId, read_only: true });
    expect(made.token).toMatch(/^cp_/);
    const listed = await admin.tokens.list().toArray();
    expect(listed.find((t) => t.id === made.id)).not.toHaveProperty("token");
    const scoped = sdk(made.token);
    expect((await scoped.me.get()).user.email).toBe((await admin.me.get()).user.email);
    await admin.tokens.revoke(made.id);
    expect(await problem(scoped.me.get())).toMatchObject({ status: 401, code: "unauthenticated" });
    expect(await problem(admin.me.stepUp({ password: "wrong" }))).toMatchObject({ status: 401 });
  });
});

describe("sso, webhooks, audit", () => {
  test("sso providers: create, get, update, list, delete after step-up; delete without step-up is 401 step_up_required", async () => {
    const { admin, tenantId } = await world();
    const provider = await admin.sso.create(tenantId, {
      provider_type: "oidc",
      name: "Okta",
      metadata_url: "https://idp.invalid/.well-known/openid-configuration",
    });
    expect(await admin.sso.get(tenantId, provider.id)).toMatchObject({ id: provider.id, name: "Okta" });
    expect(await admin.sso.update(tenantId, provider.id, { name: "Okta EU" })).toMatchObject({ name: "Okta EU" });
    expect((await admin.sso.list(tenantId).toArray()).map((p) => p.id)).toEqual([provider.id]);
    const refused = await problem(admin.sso.delete(tenantId, provider.id));
    expect(refused).toMatchObject({ status: 401, code: "step_up_required" });
    expect(refused.headers?.get("www-authenticate")).toMatch(/insufficient_user_authentication/);
    await admin.me.stepUp({ password: "admin-password" });
    await admin.sso.delete(tenantId, provider.id);
    expect(await problem(admin.sso.get(tenantId, provider.id))).toMatchObject({ status: 404 });
  });

  test("sso applications (operator): create with its secret once, get, list, delete", async () => {
    const cp = sdk((await operator()).token);
    const app = await cp.sso.applications.create({ name: "SDK app", redirect_uris: ["https://app.example/callback"] });
    expect(app.client_secret).toMatch(/\S{20,}/);
    expect(await cp.sso.applications.get(app.id)).not.toHaveProperty("client_secret");
    expect((await cp.sso.applications.list().toArray()).map((a) => a.id)).toContain(app.id);
    await cp.sso.applications.delete(app.id);
    expect(await problem(cp.sso.applications.get(app.id))).toMatchObject({ status: 404 });
  });

  test("webhooks: create (secret once), get, update, test, deliveries, delete; a bad URL names the field", async () => {
    const { admin, tenantId } = await world();
    const hook = await admin.webhooks.create(tenantId, { url: "http://127.0.0.1:9/hook", events: ["user.created"] });
    expect(hook.secret).toMatch(/\S{16,}/);
    expect(await admin.webhooks.get(tenantId, hook.id)).not.toHaveProperty("secret");
    expect(await admin.webhooks.update(tenantId, hook.id, { description: "CI" })).toMatchObject({ description: "CI" });
    await admin.webhooks.test(tenantId, hook.id);
    expect((await admin.webhooks.deliveries(tenantId, hook.id).page()).count).toBeGreaterThanOrEqual(1);
    expect((await admin.webhooks.list(tenantId).toArray()).map((w) => w.id)).toEqual([hook.id]);
    await admin.webhooks.delete(tenantId, hook.id);
    const bad = await problem(admin.webhooks.create(tenantId, { url: "not a url", events: ["user.created"] }));
    expect(bad).toMatchObject({ status: 400, code: "invalid_request" });
    expect(bad.fields.map((f) => f.path)).toContain("url");
  });

  test("audit: append, get, verify, digests and jwks; another tenant's log is 404", async () => {
    const { admin, tenantId } = await world();
    const appended = await admin.audit.append(tenantId, { event_type: "invoice.paid", actor: { id: "billing" } });
    expect(await admin.audit.get(tenantId, appended.id)).toMatchObject({ event_type: "invoice.paid" });
    expect(await admin.audit.verify(tenantId)).toMatchObject({ valid: true });
    const digest = await admin.audit.createDigest(tenantId);
    expect((await admin.audit.digests(tenantId).toArray()).map((d) => d.id)).toContain(digest.id);
    expect((await admin.audit.jwks()).keys.length).toBeGreaterThan(0);
    const other = await tenantWithMembers();
    expect(await problem(admin.audit.verify(other.tenant.id))).toMatchObject({ status: 404, code: "not_found" });
  });
});

describe("onboarding: domains, setup links, directories", () => {
  test("domains: create with its TXT record, get, update, list, delete; a malformed domain names the field", async () => {
    const { admin, tenantId } = await world();
    const name = `sdk-${randomUUID().slice(0, 8)}.example.com`;
    const domain = await admin.domains.create(tenantId, { domain: name });
    expect(domain).toMatchObject({ domain: name, tenant_id: tenantId });
    expect(await admin.domains.get(tenantId, domain.id)).toMatchObject({ id: domain.id });
    expect(await admin.domains.update(tenantId, domain.id, { auto_join: false })).toMatchObject({ auto_join: false });
    expect((await admin.domains.list(tenantId).toArray()).map((d) => d.id)).toEqual([domain.id]);
    await admin.domains.delete(tenantId, domain.id);
    const bad = await problem(admin.domains.create(tenantId, { domain: "not a domain" }));
    expect(bad.fields.map((f) => f.path)).toContain("domain");
  });

  test("setup links after step-up: create (URL once), get, list, revoke; without step-up 401", async () => {
    const { admin, tenantId } = await world();
    expect(await problem(admin.setupLinks.create(tenantId, { intent: "sso" }))).toMatchObject({ status: 401, code: "step_up_required" });
    await admin.me.stepUp({ password: "admin-password" });
    const link = await admin.setupLinks.create(tenantId, { intent: "sso" });
    expect(link.url).toMatch(/\/setup\//);
    expect(await admin.setupLinks.get(tenantId, link.id)).toMatchObject({ id: link.id });
    expect((await admin.setupLinks.list(tenantId).toArray()).map((l) => l.id)).toEqual([link.id]);
    expect(await admin.setupLinks.delete(tenantId, link.id)).toMatchObject({
      setup_link: { id: link.id, state: "revoked" },
      directory: null,
    });
  });

  test("directories after step-up: create (SCIM token once), get, update, users, groups, delete; a viewer is refused", async () => {
    const { admin, viewer, tenantId } = await world();
    expect(await problem(admin.directories.create(tenantId, { name: "Okta" }))).toMatchObject({ status: 401, code: "step_up_required" });
    await admin.me.stepUp({ password: "admin-password" });
    const directory = await admin.directories.create(tenantId, { name: "Okta production", provider: "okta" });
    expect(directory.token).toMatch(/\S{20,}/);
    expect(await admin.directories.get(tenantId, directory.id)).not.toHaveProperty("token");
    expect(await admin.directories.update(tenantId, directory.id, { name: "Okta EU" })).toMatchObject({ name: "Okta EU" });
    expect(await admin.directories.users(tenantId, directory.id).toArray()).toEqual([]);
    expect(await admin.directories.groups(tenantId, directory.id).toArray()).toEqual([]);
    expect(await problem(viewer.directories.create(tenantId, { name: "Mine" }))).toMatchObject({ status: 403 });
    await admin.directories.delete(tenantId, directory.id);
  });
});

describe("log streams", () => {
  test("after step-up: create (secret never answered), get, update, pause, test, batches, list, delete; a viewer is refused", async () => {
    const { admin, viewer, tenantId } = await world();
    const body = { name: "SIEM", type: "https" as const, config: { url: "https://siem.invalid/ingest", secret: "a-signing-secret-123" } };
    expect(await problem(admin.logStreams.create(tenantId, body))).toMatchObject({ status: 401, code: "step_up_required" });
    await admin.me.stepUp({ password: "admin-password" });
    const stream = await admin.logStreams.create(tenantId, body);
    expect(stream).toMatchObject({ name: "SIEM", type: "https", enabled: true });
    expect(JSON.stringify(stream)).not.toContain("a-signing-secret-123");
    expect(await admin.logStreams.get(tenantId, stream.id)).toMatchObject({ id: stream.id, name: "SIEM" });
    expect(await admin.logStreams.update(tenantId, stream.id, { name: "SIEM EU", enabled: false })).toMatchObject({
      name: "SIEM EU",
      enabled: false,
    });
    const tried = await admin.logStreams.test(tenantId, stream.id);
    expect(tried.ok).toBe(false); // siem.invalid does not resolve
    expect((await admin.logStreams.batches(tenantId, stream.id).toArray()).length).toBeGreaterThanOrEqual(1);
    expect((await admin.logStreams.list(tenantId).toArray()).map((s) => s.id)).toEqual([stream.id]);
    expect(await problem(viewer.logStreams.create(tenantId, body))).toMatchObject({ status: 403 });
    const bad = await problem(admin.logStreams.create(tenantId, { ...body, config: { url: "not a url" } }));
    expect(bad.fields.map((f) => f.path)).toContain("config.url");
    await admin.logStreams.delete(tenantId, stream.id);
    expect(await problem(admin.logStreams.get(tenantId, stream.id))).toMatchObject({ status: 404, code: "not_found" });
  });
});

describe("pagination", () => {
  test("for await follows `next` over several pages, each item once", async () => {
    const { admin, tenantId } = await world();
    const operatorSdk = sdk((await operator()).token);
    for (let i = 0; i < 5; i++)
      await operatorSdk.members.add(tenantId, {
        email: `page-${i}-${randomUUID().slice(0, 6)}@example.com`,
        role: "viewer",
        password: "a-long-password-1",
      });
    const pages = [];
    for await (const page of admin.members.list(tenantId, { page_size: 2 }).pages()) pages.push(page);
    expect(pages.length).toBe(4); // 7 members (admin, viewer, 5 added) by 2
    const seen: string[] = [];
    for await (const member of admin.members.list(tenantId, { page_size: 2 })) seen.push(member.user_id);
    expect(seen.length).toBe(7);
    expect(new Set(seen).size).toBe(7);
  });

  test("the audit log is read by cursor: events appended while reading do not repeat or shift", async () => {
    const { admin, tenantId } = await world();
    await admin.audit.appendBatch(tenantId, {
      events: Array.from({ length: 7 }, (_, i) => ({ event_type: "sdk.page", actor: { id: `a${i}` } })),
    });
    const seen: string[] = [];
    let appended = false;
    for await (const event of admin.audit.list(tenantId, { event_type: "sdk.page", page_size: 3 })) {
      seen.push(event.actor.id!);
      if (!appended) {
        appended = true;
        await admin.audit.append(tenantId, { event_type: "sdk.page", actor: { id: "late" } });
      }
    }
    expect(seen.length).toBe(7);
    expect(new Set(seen).size).toBe(7);
    expect(seen).not.toContain("late");
  });
});
