/**
 * The webhooks REST API: create/read/update/delete, validation naming the field, the secret shown
 * once and stored encrypted, one audit event per change, rotate behind step-up, the test event,
 * the deliveries log and retry, and the cron route's bearer check.
 */
import { describe, expect, test, vi } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";
import { database } from "../../server/db/client.ts";

process.env.CRON_SECRET = "cron-secret-for-the-webhooks-api-test";

const api = apiServer();

const HOOK = { url: "https://hooks.example.test/receive", events: ["user.created", "webhook.created"] };
const auditOf = async (tenantId: string, type: string) => (await db()).auditEvent.findMany({ where: { tenantId, eventType: type } });

async function setup() {
  const world = await tenantWithMembers();
  const base = `/api/v1/tenants/${world.tenant.id}/webhooks`;
  return { ...world, base, admin: client(api.url, world.admin.token), viewerClient: client(api.url, world.viewer.token) };
}

describe("creating webhooks", () => {
  test("201 + Location; the generated secret (whsec_) is returned once, never again", async () => {
    const { base, admin, viewerClient, tenant } = await setup();
    const res = await admin.post(base, { ...HOOK, description: "CRM sync" });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe(`${api.url}${base}/${res.json.id}`);
    expect(res.json).toMatchObject({
      tenant_id: tenant.id,
      url: HOOK.url,
      events: ["user.created", "webhook.created"],
      enabled: true,
      description: "CRM sync",
      disabled_reason: null,
      last_delivery: null,
    });
    expect(res.json.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(res.json.secret.slice(6), "base64")).toHaveLength(32);
    expect(res.json.secret_hint).toBe(res.json.secret.slice(-4));

    const secret: string = res.json.secret;
    for (const r of [
      await admin.get(`${base}/${res.json.id}`),
      await viewerClient.get(base),
      await admin.patch(`${base}/${res.json.id}`, { description: "x" }),
    ]) {
      expect(r.status).toBe(200);
      expect(r.text).not.toContain(secret);
      expect(r.text).not.toContain('"secret"');
    }
  });

  test("a given secret is used; events are de-duplicated; * is accepted", async () => {
    const { base, admin } = await setup();
    const res = await admin.post(base, {
      url: HOOK.url,
      events: ["*", "*", "user.updated", "user.updated"],
      secret: "my-own-secret-0123456789",
    });
    expect(res.status).toBe(201);
    expect(res.json.secret).toBe("my-own-secret-0123456789");
    expect(res.json.events).toEqual(["*", "user.updated"]);
  });

  test.each([
    [{ ...HOOK, url: "ftp://hooks.example.test/x" }, "url"],
    [{ ...HOOK, url: "not a url" }, "url"],
    [{ ...HOOK, url: "https://user:pass@hooks.example.test/x" }, "url"],
    [{ ...HOOK, url: `https://hooks.example.test/${"a".repeat(2050)}` }, "url"],
    [{ events: HOOK.events }, "url"],
    [{ ...HOOK, events: [] }, "events"],
    [{ ...HOOK, events: "user.created" }, "events"],
    [{ ...HOOK, events: ["user.created", "user.no_such_kind"] }, "events.1"],
    [{ ...HOOK, secret: "too-short" }, "secret"],
    [{ ...HOOK, secret: "x".repeat(257) }, "secret"],
    [{ ...HOOK, secret: "whsec_not base64 at all!!" }, "secret"],
    [{ ...HOOK, description: "d".repeat(501) }, "description"],
    [{ ...HOOK, enabled: false, colour: "red" }, ""],
  ])("400 naming the field: %j → %s", async (body, field) => {
    const { base, admin } = await setup();
    const res = await admin.post(base, body);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(res.json.code).toBe("invalid_request");
    if (field) expect(res.json.errors.map((e: { path: string }) => e.path)).toContain(field);
  });

  test("the secret is stored encrypted, and appears in no audit detail and no log line", async () => {
    const { base, admin, tenant } = await setup();
    const logged: string[] = [];
    const spies = (["log", "info", "warn", "error"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" "))),
    );
    const secret = "plain-text-secret-that-must-not-leak";
    const res = await admin.post(base, { ...HOOK, secret });
    const step = await admin.post("/api/v1/auth/step-up", { password: "admin-password" });
    expect(step.status).toBe(200);
    const rotated = await admin.post(`${base}/${res.json.id}/rotate-secret`, { secret: "second-plain-secret-not-to-leak" });
    for (const spy of spies) spy.mockRestore();
    expect(rotated.status).toBe(200);

    const { sql } = await database();
    const rows = await sql.query<{ row: string }>(`SELECT row_to_json(w)::text AS row FROM webhooks w WHERE id = $1::uuid`, [res.json.id]);
    expect(rows[0]!.row).not.toContain(secret);
    expect(rows[0]!.row).not.toContain("second-plain-secret");
    expect(rows[0]!.row).toMatch(/"secret_ciphertext":"v1\./);
    const audit = await sql.query<{ row: string }>(`SELECT row_to_json(a)::text AS row FROM audit_events a WHERE tenant_id = $1::uuid`, [
      tenant.id,
    ]);
    expect(audit.length).toBeGreaterThanOrEqual(3);
    for (const a of audit) {
      expect(a.row).not.toContain(secret);
      expect(a.row).not.toContain("second-plain-secret");
    }
    expect(logged.join("\n")).not.toContain(secret);
  });
});

describe("one audit event per change", () => {
  test("webhook.created, .updated (changed fields), .disabled, .enabled, .deleted", async () => {
    const { base, admin, tenant } = await setup();
    const created = await admin.post(base, HOOK);
    const id = created.json.id;
    const target = { targetType: "webhook", targetId: id };
    expect(await auditOf(tenant.id, "webhook.created")).toEqual([
      expect.objectContaining({ ...target, details: expect.objectContaining({ url: HOOK.url }) }),
    ]);

    // A new URL is where every future event goes: it needs a step-up.
    expect((await admin.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
    const updated = await admin.patch(`${base}/${id}`, { url: "https://hooks.example.test/v2", events: ["*"] });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ url: "https://hooks.example.test/v2", events: ["*"] });
    const [u, ...more] = await auditOf(tenant.id, "webhook.updated");
    expect(more).toHaveLength(0);
    expect(u).toMatchObject({
      ...target,
      details: { changes: { url: { from: HOOK.url, to: "https://hooks.example.test/v2" }, events: { to: ["*"] } } },
    });

    expect((await admin.patch(`${base}/${id}`, { enabled: false })).json).toMatchObject({ enabled: false });
    expect(await auditOf(tenant.id, "webhook.disabled")).toEqual([
      expect.objectContaining({ ...target, details: expect.objectContaining({ changes: { enabled: { from: true, to: false } } }) }),
    ]);
    expect((await admin.patch(`${base}/${id}`, { enabled: true })).json).toMatchObject({ enabled: true, disabled_reason: null });
    expect(await auditOf(tenant.id, "webhook.enabled")).toHaveLength(1);
    expect(await auditOf(tenant.id, "webhook.updated")).toHaveLength(1);

    expect((await admin.delete(`${base}/${id}`)).status).toBe(204);
    expect(await auditOf(tenant.id, "webhook.deleted")).toEqual([expect.objectContaining(target)]);
    expect((await admin.get(`${base}/${id}`)).status).toBe(404);
  });

  test("a PATCH that changes nothing records nothing; enabled must be a JSON boolean", async () => {
    const { base, admin, tenant } = await setup();
    const id = (await admin.post(base, HOOK)).json.id;
    expect((await admin.patch(`${base}/${id}`, { enabled: true, url: HOOK.url })).status).toBe(200);
    expect(await auditOf(tenant.id, "webhook.updated")).toHaveLength(0);
    const bad = await admin.patch(`${base}/${id}`, { enabled: "false" });
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].path).toBe("enabled");
  });

  test("rotate-secret needs step-up (401 step_up_required), then returns the new secret once and records webhook.secret_rotated", async () => {
    const { base, admin, tenant } = await setup();
    const first = await admin.post(base, HOOK);
    const path = `${base}/${first.json.id}/rotate-secret`;
    const refused = await admin.post(path, {});
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe("step_up_required");
    expect(refused.headers.get("www-authenticate")).toContain("insufficient_user_authentication");
    expect(await auditOf(tenant.id, "webhook.secret_rotated")).toHaveLength(0);

    await admin.post("/api/v1/auth/step-up", { password: "admin-password" });
    const res = await admin.post(path, {});
    expect(res.status).toBe(200);
    expect(res.json.secret).toMatch(/^whsec_/);
    expect(res.json.secret).not.toBe(first.json.secret);
    expect(res.json.secret_hint).toBe(res.json.secret.slice(-4));
    const [event] = await auditOf(tenant.id, "webhook.secret_rotated");
    expect(event).toMatchObject({ targetId: first.json.id });
    const row = await (await db()).webhook.findUniqueOrThrow({ where: { id: first.json.id } });
    expect(row.previousSecretExpiresAt!.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect((await admin.get(`${base}/${first.json.id}`)).text).not.toContain(res.json.secret);
  });

  test("another tenant's webhook is 404 for every operation", async () => {
    const a = await setup();
    const b = await setup();
    const id = (await a.admin.post(a.base, HOOK)).json.id;
    expect((await b.admin.get(`${a.base}/${id}`)).status).toBe(404);
    expect((await b.admin.get(`${b.base}/${id}`)).status).toBe(404);
    expect((await b.admin.patch(`${b.base}/${id}`, { enabled: false })).status).toBe(404);
    expect((await b.admin.post(`${b.base}/${id}/test`)).status).toBe(404);
    expect((await b.admin.get(`${b.base}/${id}/deliveries`)).status).toBe(404);
  });
});

describe("test event, deliveries log, retry", () => {
  test("the test event is a delivery to this webhook only, not an audit event; listed newest first, filterable", async () => {
    const { base, admin, viewerClient, tenant } = await setup();
    const one = (await admin.post(base, { ...HOOK, events: ["*"] })).json.id;
    const other = (await admin.post(base, { ...HOOK, events: ["*"] })).json.id;
    const sent = await admin.post(`${base}/${one}/test`);
    expect(sent.status).toBe(200);
    expect(sent.json).toMatchObject({ webhook_id: one, event_type: "webhook.test", status: "pending", attempt_count: 0, attempts: [] });
    expect(await auditOf(tenant.id, "webhook.test")).toHaveLength(0);
    const otherLog = await admin.get(`${base}/${other}/deliveries`);
    expect(otherLog.json.results.map((d: { event_type: string }) => d.event_type)).not.toContain("webhook.test");

    const log = await viewerClient.get(`${base}/${one}/deliveries?page_size=1`);
    expect(log.status).toBe(200);
    // `one` subscribes to *: its own webhook.created, `other`'s, then the test event, newest first.
    expect(log.json.count).toBe(3);
    expect(log.json.results[0]).toMatchObject({ id: sent.json.id, event_type: "webhook.test" });
    expect(log.json.next).toContain("page=2");
    const filtered = await viewerClient.get(`${base}/${one}/deliveries?status=succeeded`);
    expect(filtered.json).toMatchObject({ count: 0, results: [] });
    const bad = await viewerClient.get(`${base}/${one}/deliveries?status=nope`);
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].path).toBe("status");
  });

  test("retry makes a delivery due now; a succeeded one is 409; a viewer may not", async () => {
    const { base, admin, viewerClient } = await setup();
    const id = (await admin.post(base, HOOK)).json.id;
    const delivery = (await admin.post(`${base}/${id}/test`)).json;
    const prisma = await db();
    await prisma.webhookDelivery.update({
      where: { id: delivery.id },
      data: { status: "exhausted", nextAttemptAt: null, attemptCount: 8 },
    });
    expect((await viewerClient.post(`${base}/${id}/deliveries/${delivery.id}/retry`)).status).toBe(403);
    const retried = await admin.post(`${base}/${id}/deliveries/${delivery.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.json).toMatchObject({ status: "failed", attempt_count: 8 });
    expect(Date.parse(retried.json.next_attempt_at)).toBeLessThanOrEqual(Date.now() + 1000);
    await prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { status: "succeeded" } });
    expect((await admin.post(`${base}/${id}/deliveries/${delivery.id}/retry`)).status).toBe(409);
    expect((await admin.post(`${base}/${id}/deliveries/00000000-0000-4000-8000-000000000000/retry`)).status).toBe(404);
  });

  test("disabling cancels what is still due; deleting removes the deliveries", async () => {
    const { base, admin } = await setup();
    const id = (await admin.post(base, HOOK)).json.id;
    const delivery = (await admin.post(`${base}/${id}/test`)).json;
    await admin.patch(`${base}/${id}`, { enabled: false });
    const log = await admin.get(`${base}/${id}/deliveries`);
    expect(log.json.results.find((d: { id: string }) => d.id === delivery.id)).toMatchObject({
      status: "cancelled",
      next_attempt_at: null,
    });
    expect((await admin.post(`${base}/${id}/test`)).status).toBe(409);
    await admin.delete(`${base}/${id}`);
    expect(await (await db()).webhookDelivery.count({ where: { webhookId: id } })).toBe(0);
  });
});

describe("cron route", () => {
  test("401 problem+json without the bearer secret, or with a wrong one", async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: "Bearer wrong-secret-wrong-secret" },
      { authorization: "cron-secret-for-the-webhooks-api-test" },
    ]) {
      const res = await client(api.url).get("/api/cron/webhooks", headers);
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toContain("application/problem+json");
      expect(res.json.code).toBe("unauthenticated");
    }
  });

  test("with the secret: a JSON summary (GET or POST)", async () => {
    const headers = { authorization: `Bearer ${process.env.CRON_SECRET}` };
    for (const res of [
      await client(api.url).get("/api/cron/webhooks", headers),
      await client(api.url).post("/api/cron/webhooks", undefined, headers),
    ]) {
      expect(res.status).toBe(200);
      expect(Object.keys(res.json).sort()).toEqual([
        "claimed",
        "disabled",
        "duration_ms",
        "exhausted",
        "failed",
        "idempotency_keys_purged",
        "succeeded",
      ]);
    }
  });
});
