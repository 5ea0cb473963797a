import { beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, createUser, tenantWithMembers } from "../support/fixtures.ts";
import { database } from "../../server/db/client.ts";
import { emitEvent } from "../support/events.ts";

const api = apiServer();

const KINDS = ["user.login", "user.created", "sso_provider.created", "invoice.paid"];
const T0 = Date.parse("2026-01-01T00:00:00Z");

interface Seeded {
  id: string;
  type: string;
  actor: string;
  at: number;
  target: { type: string; id: string };
}

/** 60 events, one an hour from T0 (events 10 and 11 share a timestamp), kinds and actors rotating. */
async function seed(tenantId: string, count = 60): Promise<Seeded[]> {
  const { sql } = await database();
  const out: Seeded[] = [];
  for (let i = 0; i < count; i++) {
    const type = KINDS[i % KINDS.length]!;
    const actor = i % 3 === 0 ? "actor-1" : "actor-2";
    const at = T0 + (i === 11 ? 10 : i) * 3_600_000;
    // Two kinds of target; each id twice (t0 is events 0 and 30), in every tenant seeded.
    const target = { type: i % 2 === 0 ? "thing" : "gadget", id: `t${i % 30}` };
    const { id } = await emitEvent(
      sql,
      { id: actor, email: `${actor}@example.com`, ip: "10.0.0.1", userAgent: "seed" },
      { type, tenantId, target, details: { i }, timestamp: new Date(at) },
    );
    out.push({ id, type, actor, at, target });
  }
  return out;
}

const newestFirst = (events: Seeded[]) => [...events].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));

let world: Awaited<ReturnType<typeof tenantWithMembers>>;
let events: Seeded[];
let base: string;
beforeAll(async () => {
  world = await tenantWithMembers();
  events = await seed(world.tenant.id);
  base = `/api/v1/tenants/${world.tenant.id}/audit`;
  const other = await tenantWithMembers();
  await seed(other.tenant.id, 8);
});

/** Every result of a query, walking `next` links; asserts no id repeats. */
async function walk(path: string, token = world.viewer.token): Promise<{ ids: string[]; count: number }> {
  const c = client(api.url, token);
  const ids: string[] = [];
  let url: string | null = path;
  let count = -1;
  while (url) {
    const res = await c.get(url);
    expect(res.status, res.text).toBe(200);
    count = res.json.count;
    ids.push(...res.json.results.map((e: { id: string }) => e.id));
    url = res.json.next;
  }
  expect(new Set(ids).size).toBe(ids.length);
  return { ids, count };
}

describe("listing the audit log", () => {
  test("newest first, with the spec's fields and the chain fields", async () => {
    const res = await client(api.url, world.viewer.token).get(base);
    expect(res.status).toBe(200);
    expect(res.json.count).toBe(60);
    expect(res.json.results).toHaveLength(20);
    expect(res.json.results.map((e: Seeded) => e.id)).toEqual(
      newestFirst(events)
        .slice(0, 20)
        .map((e) => e.id),
    );
    const newest = events[59]!;
    expect(res.json.results[0]).toEqual({
      id: newest.id,
      tenant_id: world.tenant.id,
      event_type: newest.type,
      // `name`: what acted, in words (an appended actor's email); not stored, not hashed.
      actor: { id: newest.actor, email: `${newest.actor}@example.com`, name: `${newest.actor}@example.com` },
      timestamp: new Date(newest.at).toISOString(),
      metadata: { ip_address: "10.0.0.1", user_agent: "seed" },
      target: { type: "gadget", id: "t29", name: null },
      details: { i: 59 },
      sequence: 60,
      prev_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      chain_version: 2,
      // Seeded by the tests' helper, as an application's append (test/support/events.ts).
      source: { type: "api", token_id: null, user_id: "test-seed" },
      source_token_name: null,
    });
    expect(res.json.results[1].hash).toBe(res.json.results[0].prev_hash);
  });

  const cases: [string, string, (e: Seeded) => boolean][] = [
    ["exact kind", "event_type=user.login", (e) => e.type === "user.login"],
    ["comma list", "event_type=user.login,invoice.paid", (e) => ["user.login", "invoice.paid"].includes(e.type)],
    ["prefix", "event_type=user.*", (e) => e.type.startsWith("user.")],
    ["prefix and exact", "event_type=user.*,invoice.paid", (e) => e.type !== "sso_provider.created"],
    ["unknown kind", "event_type=nothing.here", () => false],
    ["actor", "actor_id=actor-1", (e) => e.actor === "actor-1"],
    ["start inclusive", "start_date=2026-01-02T00:00:00Z", (e) => e.at >= T0 + 24 * 3_600_000],
    ["end exclusive", "end_date=2026-01-02", (e) => e.at < T0 + 24 * 3_600_000],
    [
      "date range with offset",
      "start_date=2026-01-01T12:00:00%2B02:00&end_date=2026-01-02T06:00:00Z",
      (e) => e.at >= T0 + 10 * 3_600_000 && e.at < T0 + 30 * 3_600_000,
    ],
    [
      "kinds, actor and dates",
      "event_type=user.*,invoice.paid&actor_id=actor-2&start_date=2026-01-01T05:00:00Z&end_date=2026-01-02T20:00:00Z",
      (e) => e.type !== "sso_provider.created" && e.actor === "actor-2" && e.at >= T0 + 5 * 3_600_000 && e.at < T0 + 44 * 3_600_000,
    ],
    ["one kind and actor", "event_type=user.login&actor_id=actor-1", (e) => e.type === "user.login" && e.actor === "actor-1"],
    // The other tenant's log holds the same target ids: never in this one's answers.
    ["target id", "target_id=t5", (e) => e.target.id === "t5"],
    ["target type", "target_type=gadget", (e) => e.target.type === "gadget"],
    ["target id and type", "target_id=t4&target_type=thing", (e) => e.target.id === "t4" && e.target.type === "thing"],
    [
      "target type, kinds, actor and dates",
      "target_type=thing&event_type=user.*&actor_id=actor-1&start_date=2026-01-01T05:00:00Z",
      (e) => e.target.type === "thing" && e.type.startsWith("user.") && e.actor === "actor-1" && e.at >= T0 + 5 * 3_600_000,
    ],
    ["unknown target", "target_id=nothing", () => false],
  ];
  test.each(cases)("filter: %s (all pages by cursor and by offset)", async (_name, query, match) => {
    const expected = newestFirst(events.filter(match)).map((e) => e.id);
    const byOffset = await walk(`${base}?${query}&page_size=7`);
    expect(byOffset.count).toBe(expected.length);
    expect(byOffset.ids).toEqual(expected);
    // Cursor style from the first page on.
    const c = client(api.url, world.viewer.token);
    const first = await c.get(`${base}?${query}&page_size=7`);
    const ids: string[] = first.json.results.map((e: Seeded) => e.id);
    let cursor: string | null = first.json.next_cursor;
    while (cursor) {
      const res = await c.get(`${base}?${query}&page_size=7&cursor=${cursor}`);
      expect(res.json.next === null || !new URL(res.json.next).searchParams.has("page")).toBe(true);
      ids.push(...res.json.results.map((e: Seeded) => e.id));
      cursor = res.json.next_cursor;
    }
    expect(ids).toEqual(expected);
  });

  test("cursor pages walk back with previous_cursor to the same pages", async () => {
    const c = client(api.url, world.viewer.token);
    const q = `${base}?event_type=user.*&page_size=5`;
    const p1 = await c.get(q);
    const p2 = await c.get(`${q}&cursor=${p1.json.next_cursor}`);
    const p3 = await c.get(`${q}&cursor=${p2.json.next_cursor}`);
    const back = await c.get(`${q}&cursor=${p3.json.previous_cursor}`);
    expect(back.json.results).toEqual(p2.json.results);
    const backAgain = await c.get(`${q}&cursor=${back.json.previous_cursor}`);
    expect(backAgain.json.results).toEqual(p1.json.results);
    expect(backAgain.json.previous_cursor).toBeNull();
  });

  test("events of another tenant never show", async () => {
    const { ids } = await walk(`${base}?page_size=100`);
    expect(ids.sort()).toEqual(events.map((e) => e.id).sort());
  });

  test.each([
    ["event_type", "event_type=User.Login"],
    ["event_type", "event_type=user."],
    ["event_type", "event_type=user.**"],
    ["event_type", "event_type=user.login,,invoice.paid"],
    ["event_type", "event_type=user.login%3B--"],
    ["start_date", "start_date=yesterday"],
    ["start_date", "start_date=2026-02-30"],
    ["end_date", "end_date=2026-01-01T25:00:00Z"],
    ["start_date", "start_date=2026-01-03&end_date=2026-01-02"],
    ["actor_id", "actor_id="],
    ["page_size", "page_size=0"],
    ["page", "page=abc"],
    ["cursor", "cursor=not-a-cursor"],
  ])("bad %s (%s) is a 400 naming it", async (param, query) => {
    const res = await client(api.url, world.viewer.token).get(`${base}?${query}`);
    expect(res.status, res.text).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.json.errors.map((e: { path: string }) => e.path)).toContain(param);
  });

  test("support staff and operators read any tenant; another tenant's admin gets 404", async () => {
    const support = await createUser({ platformRole: "support" });
    const operator = await createUser({ platformRole: "operator" });
    const other = await tenantWithMembers();
    expect((await client(api.url, await createToken(support.id)).get(base)).json.count).toBe(60);
    expect((await client(api.url, await createToken(operator.id)).get(base)).json.count).toBe(60);
    const res = await client(api.url, other.admin.token).get(base);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain(world.tenant.id);
  });
});

describe("event kinds and single events", () => {
  test("event-types lists the tenant's kinds with counts, by name", async () => {
    const res = await client(api.url, world.viewer.token).get(`${base}/event-types`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      results: [
        { event_type: "invoice.paid", count: 15 },
        { event_type: "sso_provider.created", count: 15 },
        { event_type: "user.created", count: 15 },
        { event_type: "user.login", count: 15 },
      ],
    });
  });

  test("get one event; another tenant's event or a non-uuid is 404", async () => {
    const c = client(api.url, world.viewer.token);
    const one = await c.get(`${base}/${events[3]!.id}`);
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ id: events[3]!.id, sequence: 4, details: { i: 3 } });
    const other = await tenantWithMembers();
    const [foreign] = await seed(other.tenant.id, 1);
    expect((await c.get(`${base}/${foreign!.id}`)).status).toBe(404);
    expect((await client(api.url, other.admin.token).get(`${base}/${events[3]!.id}`)).status).toBe(404);
    expect((await c.get(`${base}/not-a-uuid`)).status).toBe(404);
    expect((await c.get(`${base}/${randomUUID()}`)).status).toBe(404);
  });
});
