/** POST /tenants/{tenant_id}/audit/batch: many events per request, all or none, contiguous in the chain. */
import { describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, operator, tenantWithMembers } from "../support/fixtures.ts";
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
  return { ...world, base, adminUser: world.admin.user, admin: client(api.url, world.admin.token), count };
}

const event = (i: number) => ({
  event_type: "invoice.paid",
  actor: { id: `app-user-${i}`, email: "buyer@example.com" },
  timestamp: "2026-01-15T10:30:00.250Z",
  metadata: { ip_address: "203.0.113.9", user_agent: "billing-service/2.1" },
  target: { type: "invoice", id: `inv_${i}` },
  details: { i },
});
const events = (n: number) => Array.from({ length: n }, (_, i) => event(i));

type Result = { id: string; sequence: number; prev_hash: string; hash: string; details: { i: number } };

describe("appending a batch of events", () => {
  test("201 without Location; results in the order sent, contiguous in the chain, each as a single append shows it", async () => {
    const { base, admin, tenant } = await setup();
    await admin.post(base, { event_type: "app.started", actor: { id: "svc" } });
    const res = await admin.post(`${base}/batch`, { events: [...events(3), { event_type: "app.stopped", actor: { id: "svc" } }] });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("location")).toBeNull();
    const results = res.json.results as Result[];
    expect(results.map((e) => e.sequence)).toEqual([2, 3, 4, 5]);
    expect(results.slice(0, 3).map((e) => e.details.i)).toEqual([0, 1, 2]);
    results.slice(1).forEach((e, i) => expect(e.prev_hash).toBe(results[i]!.hash));
    expect(results[0]).toEqual({
      id: expect.any(String),
      tenant_id: tenant.id,
      event_type: "invoice.paid",
      actor: event(0).actor,
      timestamp: event(0).timestamp,
      metadata: event(0).metadata,
      target: { ...event(0).target, name: null },
      details: { i: 0 },
      sequence: 2,
      prev_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      chain_version: 2,
      source: { type: "api", token_id: expect.any(String), user_id: expect.any(String) },
    });
    expect(results[3]).toMatchObject({ event_type: "app.stopped", actor: { id: "svc", email: null }, target: null, details: {} });
    for (const e of results) expect(storedForm((await admin.get(`${base}/${e.id}`)).json)).toEqual(e);
    expect((await admin.get(`${base}/verify`)).json).toMatchObject({ valid: true, checked: 5 });
  });

  test("500 events in one request are accepted", async () => {
    const { base, admin, count } = await setup();
    const res = await admin.post(`${base}/batch`, { events: events(500) });
    expect(res.status, res.text).toBe(201);
    expect((res.json.results as Result[]).map((e) => e.details.i)).toEqual(Array.from({ length: 500 }, (_, i) => i));
    expect(await count()).toBe(500);
  });

  const big = "x".repeat(32 * 1024);
  test.each([
    ["events.3.event_type", { events: [...events(3), { ...event(3), event_type: "Invoice.Paid" }] }],
    ["events.1.actor.id", { events: [event(0), { ...event(1), actor: { id: "" } }] }],
    ["events.2.timestamp", { events: [...events(2), { ...event(2), timestamp: new Date(Date.now() + 60_000).toISOString() }] }],
    ["events.0.details", { events: [{ ...event(0), details: { blob: big } }, event(1)] }],
    ["events.1.metadata.ip_address", { events: [event(0), { ...event(1), metadata: { ip_address: "999.1.1.1" } }] }],
    ["events.0", { events: [{ ...event(0), sequence: 1 }] }],
    ["events", { events: [] }],
    ["events", { events: events(501) }],
    ["events", {}],
    ["events", { events: event(0) }],
    ["body", { events: events(1), extra: true }],
  ])("a bad %s is a 400 naming it, and nothing is written", async (path, body) => {
    const { base, admin, count } = await setup();
    const res = await admin.post(`${base}/batch`, body);
    expect(res.status, res.text).toBe(400);
    const paths = res.json.errors.map((e: { path: string }) => e.path);
    expect(paths.some((p: string) => p === path || (path === "body" && p === ""))).toBe(true);
    expect(await count()).toBe(0);
  });

  test("an Idempotency-Key replay answers the first response and writes the events once", async () => {
    const { base, admin, count } = await setup();
    const headers = { "Idempotency-Key": "batch-once-1" };
    const first = await admin.post(`${base}/batch`, { events: events(4) }, headers);
    const again = await admin.post(`${base}/batch`, { events: events(4) }, headers);
    expect(first.status, first.text).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json).toEqual(first.json);
    expect(await count()).toBe(4);
    expect((await admin.post(`${base}/batch`, { events: events(5) }, headers)).status).toBe(422);
  });

  test("viewers and read-only tokens may not append (403); another tenant's admin gets 404; an operator may", async () => {
    const { base, viewer, tenant, count } = await setup();
    const body = { events: events(2) };
    expect((await client(api.url, viewer.token).post(`${base}/batch`, body)).status).toBe(403);
    const prisma = (await database()).prisma;
    const owner = await prisma.membership.findFirstOrThrow({ where: { tenantId: tenant.id, role: "admin" } });
    expect((await client(api.url, await createToken(owner.userId, { readOnly: true })).post(`${base}/batch`, body)).status).toBe(403);
    const other = await tenantWithMembers();
    expect((await client(api.url, other.admin.token).post(`${base}/batch`, body)).status).toBe(404);
    expect(await count()).toBe(0);
    expect((await client(api.url, (await operator()).token).post(`${base}/batch`, body)).status).toBe(201);
    expect(await count()).toBe(2);
  });

  test("concurrent batches and single appends from several clients make one intact chain, each batch contiguous", async () => {
    const { base, admin, adminUser, tenant, count } = await setup();
    const tokens = await Promise.all(Array.from({ length: 4 }, () => createToken(adminUser.id, { tenantId: tenant.id })));
    const clients = tokens.map((token) => client(api.url, token));
    const batches = Array.from({ length: 12 }, (_, b) => Array.from({ length: 25 }, (_, i) => ({ ...event(i), details: { b, i } })));
    const responses = await Promise.all([
      ...batches.map((batch, b) => clients[b % clients.length]!.post(`${base}/batch`, { events: batch })),
      ...Array.from({ length: 8 }, (_, i) => clients[i % clients.length]!.post(base, { event_type: "app.ping", actor: { id: "svc" } })),
    ]);
    for (const res of responses) expect(res.status, res.text).toBe(201);
    responses.slice(0, batches.length).forEach((res, b) => {
      const results = res.json.results as Array<Result & { details: { b: number; i: number } }>;
      expect(results.map((e) => e.details)).toEqual(batches[b]!.map((e) => e.details));
      const first = results[0]!.sequence;
      expect(results.map((e) => e.sequence)).toEqual(Array.from({ length: 25 }, (_, i) => first + i));
    });
    expect(await count()).toBe(12 * 25 + 8);
    const verify = await admin.get(`${base}/verify`);
    expect(verify.json).toMatchObject({ valid: true, checked: 12 * 25 + 8, first_invalid_sequence: null });
  });
});
