import { describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, tenantWithMembers } from "../support/fixtures.ts";
import { storedForm } from "../support/events.ts";
import { database } from "../../server/db/client.ts";

const api = apiServer();

async function setup() {
  const world = await tenantWithMembers();
  const base = `/api/v1/tenants/${world.tenant.id}/audit`;
  const count = async () => {
    const { sql } = await database();
    const [row] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_events WHERE tenant_id = $1`, [world.tenant.id]);
    return row!.n;
  };
  return { ...world, base, admin: client(api.url, world.admin.token), count };
}

const GOOD = {
  event_type: "invoice.paid",
  actor: { id: "app-user-42", email: "buyer@example.com" },
  timestamp: "2026-01-15T10:30:00.250Z",
  metadata: { ip_address: "203.0.113.9", user_agent: "billing-service/2.1" },
  target: { type: "invoice", id: "inv_123" },
  details: { amount: 4200, currency: "EUR", lines: [{ sku: "a" }] },
};

describe("appending events", () => {
  test("201 with Location; the event is stored as given and chained", async () => {
    const { base, admin, tenant } = await setup();
    const res = await admin.post(base, GOOD);
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("location")).toBe(`${api.url}${base}/${res.json.id}`);
    expect(res.json).toEqual({
      id: expect.any(String),
      tenant_id: tenant.id,
      event_type: "invoice.paid",
      actor: GOOD.actor,
      timestamp: GOOD.timestamp,
      metadata: GOOD.metadata,
      target: { ...GOOD.target, name: null },
      details: GOOD.details,
      sequence: 1,
      prev_hash: "0".repeat(64),
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      // Who appended it, from the credentials (see audit-source.test.ts).
      chain_version: 2,
      source: { type: "api", token_id: expect.any(String), user_id: expect.any(String) },
    });
    const got = await admin.get(res.headers.get("location")!);
    // As read, it also says what acted in words and the token's name (never stored, never hashed).
    expect(storedForm(got.json)).toEqual(res.json);
    expect(got.json.actor.name).toBe("buyer@example.com");
    expect(got.json.source_token_name).toBe("test");
    const verify = await admin.get(`${base}/verify`);
    expect(verify.json).toMatchObject({ valid: true, checked: 1 });
  });

  test("only event_type and actor.id are required; the rest is null or empty", async () => {
    const { base, admin } = await setup();
    const before = Date.now();
    const res = await admin.post(base, { event_type: "app.started", actor: { id: "svc" } });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({
      actor: { id: "svc", email: null },
      metadata: { ip_address: null, user_agent: null },
      target: null,
      details: {},
    });
    expect(Date.parse(res.json.timestamp)).toBeGreaterThanOrEqual(before - 1000);
  });

  test("a timestamp a moment ahead (clock skew under 5 s) is accepted; further ahead is 400", async () => {
    const { base, admin, count } = await setup();
    const soon = await admin.post(base, { ...GOOD, timestamp: new Date(Date.now() + 2_000).toISOString() });
    expect(soon.status, soon.text).toBe(201);
    const later = await admin.post(base, { ...GOOD, timestamp: new Date(Date.now() + 60_000).toISOString() });
    expect(later.status).toBe(400);
    expect(later.json.errors).toEqual([{ path: "timestamp", message: "must not be in the future" }]);
    expect(await count()).toBe(1);
  });

  const big = "x".repeat(32 * 1024);
  test.each([
    ["event_type", { ...GOOD, event_type: "Invoice.Paid" }],
    ["event_type", { ...GOOD, event_type: "invoice" }],
    ["event_type", { ...GOOD, event_type: "invoice.*" }],
    ["event_type", { ...GOOD, event_type: `a.${"b".repeat(99)}` }],
    ["event_type", { ...GOOD, event_type: undefined }],
    // The control plane's own kinds cannot be forged into the trail.
    ["event_type", { ...GOOD, event_type: "user.login" }],
    ["event_type", { ...GOOD, event_type: "audit.exported" }],
    ["event_type", { ...GOOD, event_type: "webhook.test" }],
    // Nor look-alikes in its namespaces (issue 21, finding 6): kinds it does not emit (yet), too.
    ["event_type", { ...GOOD, event_type: "user.deleted" }],
    ["event_type", { ...GOOD, event_type: "tenant.deleted" }],
    ["event_type", { ...GOOD, event_type: "user.role_changed" }],
    ["event_type", { ...GOOD, event_type: "sso_provider.hijacked" }],
    ["event_type", { ...GOOD, event_type: "dsync.user.deleted" }],
    ["actor", { ...GOOD, actor: undefined }],
    ["actor.id", { ...GOOD, actor: { email: "x@example.com" } }],
    ["actor.id", { ...GOOD, actor: { id: "" } }],
    ["actor", { ...GOOD, actor: { id: "a", role: "admin" } }],
    ["timestamp", { ...GOOD, timestamp: "last tuesday" }],
    ["metadata.ip_address", { ...GOOD, metadata: { ip_address: "999.1.1.1" } }],
    ["metadata", { ...GOOD, metadata: { ip: "1.2.3.4" } }],
    ["target.id", { ...GOOD, target: { type: "invoice" } }],
    ["details", { ...GOOD, details: [1, 2] }],
    ["details", { ...GOOD, details: { blob: big } }],
    ["body", { ...GOOD, sequence: 1 }],
    // Who appended the event is the server's to say (issue 21, finding 6).
    ["body", { ...GOOD, source: { type: "platform" } }],
    ["body", { ...GOOD, chain_version: 1 }],
  ])("bad %s is a 400 naming it, and nothing is written", async (path, body) => {
    const { base, admin, count } = await setup();
    const res = await admin.post(base, body);
    expect(res.status, res.text).toBe(400);
    const paths = res.json.errors.map((e: { path: string }) => e.path);
    expect(paths.some((p: string) => p === path || (path === "body" && p === ""))).toBe(true);
    expect(await count()).toBe(0);
  });

  test("details just under 32 KiB are accepted", async () => {
    const { base, admin } = await setup();
    const blob = "y".repeat(32 * 1024 - JSON.stringify({ blob: "" }).length);
    const res = await admin.post(base, { ...GOOD, details: { blob } });
    expect(res.status, res.text).toBe(201);
  });

  test("an Idempotency-Key replay answers the first response and writes one event", async () => {
    const { base, admin, count } = await setup();
    const headers = { "Idempotency-Key": "append-once-1" };
    const first = await admin.post(base, GOOD, headers);
    const again = await admin.post(base, GOOD, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json).toEqual(first.json);
    expect(again.headers.get("location")).toBe(first.headers.get("location"));
    expect(await count()).toBe(1);
    const other = await admin.post(base, { ...GOOD, event_type: "invoice.refunded" }, headers);
    expect(other.status).toBe(422);
  });

  test("viewers and read-only tokens may not append", async () => {
    const { base, viewer, tenant, count } = await setup();
    expect((await client(api.url, viewer.token).post(base, GOOD)).status).toBe(403);
    const prisma = (await database()).prisma;
    const owner = await prisma.membership.findFirstOrThrow({ where: { tenantId: tenant.id, role: "admin" } });
    expect((await client(api.url, await createToken(owner.userId, { readOnly: true })).post(base, GOOD)).status).toBe(403);
    expect(await count()).toBe(0);
  });
});
