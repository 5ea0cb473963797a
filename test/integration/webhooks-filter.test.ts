/**
 * Content filters (CEL) on webhooks: checked on save (400 naming `filter` with the parser's
 * problem), cleared by null, tried against an example in the console's "Test against example",
 * and applied by the outbox: a filtered webhook gets only the events its filter is true for, an
 * event it fails on (a missing key) is not delivered, and unfiltered webhooks are untouched.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { database, type Database } from "../../server/db/client.ts";
import { emitEvent } from "../support/events.ts";
import { startWebhookDispatcher } from "../../server/webhooks/sink.ts";

const api = apiServer();
const HOOK = { url: "https://hooks.example.test/receive", events: ["*"] };
let receiver: Receiver | undefined;
let database_: Database;
let stopDispatcher: () => Promise<void>;
beforeAll(async () => {
  database_ = await database();
  stopDispatcher = await startWebhookDispatcher(database_);
});
afterAll(async () => stopDispatcher());
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

async function setup() {
  const world = await tenantWithMembers();
  const base = `/api/v1/tenants/${world.tenant.id}/webhooks`;
  return { ...world, base, admin: client(api.url, world.admin.token), viewerClient: client(api.url, world.viewer.token) };
}

const emit = (tenantId: string, type: string, details: Record<string, unknown>) =>
  database_.sql.transaction((tx) =>
    emitEvent(
      tx,
      { id: null, email: "app@example.com", ip: null, userAgent: null },
      { type, tenantId, target: { type: "user", id: "u-1" }, details },
    ),
  );

describe("saving a filter", () => {
  test("create keeps it, GET shows it, PATCH changes it and null clears it", async () => {
    const { base, admin } = await setup();
    const filter = 'event.type == "invoice.paid" && data.details.amount > 100';
    const res = await admin.post(base, { ...HOOK, filter });
    expect(res.status).toBe(201);
    expect(res.json.filter).toBe(filter);
    expect((await admin.get(`${base}/${res.json.id}`)).json.filter).toBe(filter);
    const changed = await admin.patch(`${base}/${res.json.id}`, {
      filter: 'has(data.details.role) && data.details.role in ["admin", "owner"]',
    });
    expect(changed.status).toBe(200);
    expect(changed.json.filter).toContain("has(data.details.role)");
    const cleared = await admin.patch(`${base}/${res.json.id}`, { filter: null });
    expect(cleared.json.filter).toBeNull();
    expect((await admin.post(base, HOOK)).json.filter).toBeNull();
  });

  test.each([
    ["data.details.role ==", /not a valid CEL expression: Unexpected token/],
    ["role == 'admin'", /Unknown variable: role/],
    ['type == "user.created"', /event\.type/],
    ["1 + 2", /must give a boolean \(this one gives int\)/],
    ['"a" + "b"', /must give a boolean \(this one gives string\)/],
    [`event.type == "${"x".repeat(1000)}"`, /at most 1000 characters/],
    ["   ", /must be a CEL expression/],
    ["[1].map(a, [1].map(b, [1].map(c, c))).size() > 0", /at most 2 list macros/],
  ])("400 naming filter: %s", async (filter, message) => {
    const { base, admin } = await setup();
    for (const res of [
      await admin.post(base, { ...HOOK, filter }),
      await admin.patch(`${base}/${(await admin.post(base, HOOK)).json.id}`, { filter }),
      await admin.post(`${base}/filter-test`, { filter, event_type: "user.created" }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.json.code).toBe("invalid_request");
      const error = res.json.errors.find((e: { path: string }) => e.path === "filter");
      expect(error?.message).toMatch(message);
    }
  });

  test("a filter that is not a string is 400 naming it, before the parser", async () => {
    const { base, admin } = await setup();
    const res = await admin.post(base, { ...HOOK, filter: 42 });
    expect(res.status).toBe(400);
    expect(res.json.errors.map((e: { path: string }) => e.path)).toContain("filter");
  });
});

describe("Test against example", () => {
  test("evaluates against an example of the kind: match, no match, an error that does not match", async () => {
    const { base, admin, viewerClient, tenant } = await setup();
    const yes = await admin.post(`${base}/filter-test`, {
      filter: 'event.type == "user.created" && tenant_id == "' + tenant.id + '"',
      event_type: "user.created",
    });
    expect(yes.status).toBe(200);
    expect(yes.json).toMatchObject({ matches: true, error: null });
    expect(JSON.parse(yes.json.payload)).toMatchObject({ type: "user.created", tenant_id: tenant.id, data: { target: { type: "user" } } });
    const no = await admin.post(`${base}/filter-test`, { filter: 'event.type.startsWith("sso.")', event_type: "invoice.*" });
    expect(no.json).toMatchObject({ matches: false, error: null });
    expect(JSON.parse(no.json.payload).type).toBe("invoice.example");
    const missing = await admin.post(`${base}/filter-test`, { filter: 'data.details.no_such_key == "admin"', event_type: "*" });
    expect(missing.json).toMatchObject({ matches: false, error: expect.stringContaining("No such key: no_such_key") });
    expect((await viewerClient.post(`${base}/filter-test`, { filter: "true", event_type: "*" })).status).toBe(403);
    expect((await admin.post(`${base}/filter-test`, { filter: "true", event_type: "Not a kind" })).status).toBe(400);
  });
});

describe("delivering through a filter", () => {
  test("a filtered webhook gets only matching events; an unfiltered one gets all; a failing filter delivers nothing", async () => {
    const { base, admin, tenant } = await setup();
    receiver = await startReceiver();
    const hook = async (path: string, filter?: string) =>
      (await admin.post(base, { url: `${receiver!.url}/${path}`, events: ["invoice.*"], ...(filter ? { filter } : {}) })).json.id as string;
    const filtered = await hook("filtered", 'data.details.amount >= 100 && data.details.currency in ["EUR", "USD"]');
    await hook("all");
    const failing = await hook("failing", 'data.details.missing == "x"');

    await emit(tenant.id, "invoice.paid", { amount: 150, currency: "EUR" });
    await emit(tenant.id, "invoice.paid", { amount: 50, currency: "EUR" });
    await emit(tenant.id, "invoice.paid", { amount: 500, currency: "GBP" });
    await emit(tenant.id, "invoice.refunded", { amount: 100, currency: "USD" });

    await receiver.waitFor(4, { filter: (r) => r.path === "/all" });
    await receiver.waitFor(2, { filter: (r) => r.path === "/filtered" });
    const got = receiver.received.filter((r) => r.path === "/filtered").map((r) => JSON.parse(r.body).data.details);
    expect(got).toEqual(
      expect.arrayContaining([
        { amount: 150, currency: "EUR" },
        { amount: 100, currency: "USD" },
      ]),
    );
    expect(got).toHaveLength(2);
    const prisma = await db();
    expect(await prisma.webhookDelivery.count({ where: { webhookId: filtered } })).toBe(2);
    expect(await prisma.webhookDelivery.count({ where: { webhookId: failing } })).toBe(0);
    expect(receiver.received.filter((r) => r.path === "/failing")).toHaveLength(0);
  });

  test("events of one transaction are each evaluated: a batch of appends gets the matching ones", async () => {
    const { base, admin, tenant } = await setup();
    receiver = await startReceiver();
    const id = (await admin.post(base, { url: `${receiver.url}/even`, events: ["order.*"], filter: "int(data.details.n) % 2 == 0" })).json
      .id as string;
    await database_.sql.transaction(async (tx) => {
      for (let n = 0; n < 10; n++)
        await emitEvent(
          tx,
          { id: null, email: null, ip: null, userAgent: null },
          { type: "order.placed", tenantId: tenant.id, details: { n } },
        );
    });
    await receiver.waitFor(5);
    const ns = (await (await db()).webhookDelivery.findMany({ where: { webhookId: id } })).map((d) => JSON.parse(d.payload).data.details.n);
    expect(ns.sort()).toEqual([0, 2, 4, 6, 8]);
  });
});
