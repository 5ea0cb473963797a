/**
 * The Events API (GET /tenants/{id}/events): a tenant's events pulled by cursor, the same payloads
 * the webhooks get. Two app instances in their own processes write to one tenant at once while a
 * reader follows cursors through one of them: every event is read once, in order, none skipped.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { client, createToken, createUser, tenantWithMembers } from "../support/fixtures.ts";
import { startInstance, type Instance } from "../support/instances.ts";
import { apiServer } from "../support/api-server.ts";
import { database } from "../../server/db/client.ts";

const server = apiServer();
const ENV = { INTERNAL_CRON: "off", LOG_LEVEL: "warn" };

type Feed = {
  results: { id: string; type: string; created_at: string; data: { details: Record<string, unknown> } }[];
  next_cursor: string;
};

const append = (url: string, tenantId: string, token: string, n: number, kind = "app.step") =>
  fetch(`${url}/api/v1/tenants/${tenantId}/audit`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ event_type: kind, actor: { id: `writer-${n % 3}` }, details: { n } }),
  });

describe("across two instances", () => {
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    [a, b] = await Promise.all([startInstance(ENV), startInstance(ENV)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  test("a reader following cursors while two instances write sees every event once, in order", async () => {
    const world = await tenantWithMembers();
    const reader = client(a.url, world.viewer.token);
    const total = 300;
    let next = 0;
    const writers = Promise.all(
      Array.from({ length: 12 }, async () => {
        for (let n = next++; n < total; n = next++) {
          const response = await append([a.url, b.url][n % 2]!, world.tenant.id, world.admin.token, n);
          expect(response.status, a.stderr() + b.stderr()).toBe(201);
        }
      }),
    );
    const seen: Feed["results"] = [];
    let cursor: string | undefined;
    while (seen.filter((e) => e.type === "app.step").length < total) {
      const query = new URLSearchParams({ limit: "37", wait: "2", ...(cursor ? { after: cursor } : {}) });
      const page = await reader.get(`/api/v1/tenants/${world.tenant.id}/events?${query}`);
      expect(page.status, page.text).toBe(200);
      seen.push(...(page.json as Feed).results);
      cursor = (page.json as Feed).next_cursor;
    }
    await writers;

    const { sql } = await database();
    const stored = await sql.query<{ id: string }>(`SELECT id FROM audit_events WHERE tenant_id = $1::uuid ORDER BY sequence`, [
      world.tenant.id,
    ]);
    expect(seen.map((e) => e.id)).toEqual(stored.map((row) => row.id));
    const ns = seen.filter((e) => e.type === "app.step").map((e) => e.data.details.n as number);
    expect(new Set(ns).size).toBe(total);
    // The cursor is a position: read again from it, nothing new.
    const again = await reader.get(`/api/v1/tenants/${world.tenant.id}/events?after=${cursor}`);
    expect(again.json).toEqual({ results: [], next_cursor: cursor });
  }, 120_000);

  test("a long poll on one instance answers soon after another instance commits", async () => {
    const world = await tenantWithMembers();
    const reader = client(a.url, world.viewer.token);
    const head = (await reader.get(`/api/v1/tenants/${world.tenant.id}/events`)).json as Feed;
    const started = Date.now();
    const polled = reader
      .get(`/api/v1/tenants/${world.tenant.id}/events?wait=20&after=${head.next_cursor}`)
      .then((r) => ({ ...r, at: Date.now() }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const response = await append(b.url, world.tenant.id, world.admin.token, 1);
    const committed = Date.now();
    expect(response.status).toBe(201);
    const answer = await polled;
    expect(answer.status).toBe(200);
    expect((answer.json as Feed).results.map((e) => e.data.details.n)).toEqual([1]);
    // Loose here (two cores shared with other suites); bench/events.ts measures the latency.
    expect(answer.at - committed).toBeLessThan(1000);
    expect(answer.at - started).toBeGreaterThanOrEqual(300);
  }, 60_000);
});

describe("one instance", () => {
  test("serves the payload the webhook gets, byte for byte in JSON", async () => {
    const world = await tenantWithMembers();
    const admin = client(server.url, world.admin.token);
    const created = await admin.post(`/api/v1/tenants/${world.tenant.id}/webhooks`, { url: "http://127.0.0.1:9/hook", events: ["*"] });
    expect(created.status, created.text).toBe(201);
    await admin.post(`/api/v1/tenants/${world.tenant.id}/invitations`, { email: "grace@example.com", role: "viewer" });
    const { sql } = await database();
    const deliveries = await sql.query<{ event_id: string; payload: string }>(
      `SELECT event_id, payload FROM webhook_deliveries WHERE tenant_id = $1::uuid`,
      [world.tenant.id],
    );
    expect(deliveries.length).toBeGreaterThan(0);
    const feed = (await client(server.url, world.viewer.token).get(`/api/v1/tenants/${world.tenant.id}/events`)).json as Feed;
    for (const delivery of deliveries) {
      const { tenant_id, ...sent } = JSON.parse(delivery.payload) as Record<string, unknown>;
      expect(tenant_id).toBe(world.tenant.id);
      expect(feed.results.find((e) => e.id === delivery.event_id)).toEqual(sent);
    }
  });

  test("filters by kind while the cursor moves past the others", async () => {
    const world = await tenantWithMembers();
    for (let n = 0; n < 5; n++) await append(server.url, world.tenant.id, world.admin.token, n);
    expect((await append(server.url, world.tenant.id, world.admin.token, 5, "billing.paid")).status).toBe(201);
    const reader = client(server.url, world.viewer.token);
    const page = (await reader.get(`/api/v1/tenants/${world.tenant.id}/events?event_types=billing.*,user.login`)).json as Feed;
    expect(page.results.map((e) => e.type)).toEqual(["billing.paid"]);
    const rest = (await reader.get(`/api/v1/tenants/${world.tenant.id}/events?after=${page.next_cursor}`)).json as Feed;
    expect(rest.results).toEqual([]);
    const limited = (await reader.get(`/api/v1/tenants/${world.tenant.id}/events?limit=2`)).json as Feed;
    expect(limited.results.map((e) => e.data.details.n)).toEqual([0, 1]);
  });

  test("a cursor older than retention is 410 with the oldest cursor, which reads on", async () => {
    const world = await tenantWithMembers();
    const { sql } = await database();
    const old = new Date(Date.now() - 40 * 86_400_000);
    for (let n = 0; n < 3; n++) {
      await sql.query(
        `INSERT INTO audit_events (tenant_id, event_type, actor_id, "timestamp", recorded_at) VALUES ($1, 'app.old', 'a', $2, $2)`,
        [world.tenant.id, old],
      );
    }
    for (let n = 0; n < 2; n++) await append(server.url, world.tenant.id, world.admin.token, n);
    const reader = client(server.url, world.viewer.token);
    const start = (await reader.get(`/api/v1/tenants/${world.tenant.id}/events`)).json as Feed;
    expect(start.results.map((e) => e.type)).toEqual(["app.step", "app.step"]);
    const zero = Buffer.from("ev1:0").toString("base64url");
    const gone = await reader.get(`/api/v1/tenants/${world.tenant.id}/events?after=${zero}`);
    expect(gone.status).toBe(410);
    expect(gone.json).toMatchObject({ code: "gone", oldest_cursor: Buffer.from("ev1:3").toString("base64url") });
    const resumed = (await reader.get(`/api/v1/tenants/${world.tenant.id}/events?after=${gone.json.oldest_cursor}`)).json as Feed;
    expect(resumed.results.map((e) => e.id)).toEqual(start.results.map((e) => e.id));
  });

  test("tenant viewers read; others are 401, 404; bad parameters are 400 naming the field", async () => {
    const world = await tenantWithMembers();
    const other = await tenantWithMembers();
    const path = `/api/v1/tenants/${world.tenant.id}/events`;
    expect((await client(server.url).get(path)).status).toBe(401);
    expect((await client(server.url, other.viewer.token).get(path)).status).toBe(404);
    expect((await client(server.url, world.viewer.token).get(path)).status).toBe(200);
    for (const [query, field] of [
      ["after=nope", "after"],
      [`after=${Buffer.from("ev1:999").toString("base64url")}`, "after"],
      ["wait=31", "wait"],
      ["limit=0", "limit"],
      ["limit=501", "limit"],
      ["event_types=NOT A KIND", "event_types"],
    ] as const) {
      const response = await client(server.url, world.viewer.token).get(`${path}?${query}`);
      expect(response.status, query).toBe(400);
      expect(
        response.json.errors.map((e: { path: string }) => e.path),
        query,
      ).toEqual([field]);
    }
  });
});

describe("the event catalog", () => {
  test("any signed-in caller reads every kind with its schema and example; unknown kinds are 404", async () => {
    const loner = await createUser();
    const c = client(server.url, await createToken(loner.id));
    expect((await client(server.url).get("/api/v1/event-types")).status).toBe(401);
    const list = await c.get("/api/v1/event-types");
    expect(list.status).toBe(200);
    const login = list.json.results.find((k: { name: string }) => k.name === "user.login");
    expect(login).toMatchObject({ group: "user", deprecated: false, example: { details: { method: "password" } } });
    expect(login.schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect((await c.get("/api/v1/event-types/user.login")).json).toEqual(login);
    expect((await c.get("/api/v1/event-types/app.step")).status).toBe(404);
  });
});
