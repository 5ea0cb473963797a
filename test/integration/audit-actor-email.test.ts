/**
 * The audit list's and export's `actor_email` filter: the email the log holds for an event's actor,
 * exact in any letter case, whoever the actor is (an appended event's actor has no account here).
 * Served by the (tenant_id, lower(actor_email), timestamp, id) index (migration
 * 20261203000000_audit_actor_email): the plans below read it, and the count reads it alone.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { fetchOpenApiDocument, operationAt } from "../support/openapi-document.ts";
import { client, tenantWithMembers } from "../support/fixtures.ts";
import { database } from "../../server/db/client.ts";
import type { SqlRunner } from "../../server/db/sql.ts";
import { emitEvent } from "../support/events.ts";
import { chainHead, countEvents, findEvents, resolveFilter } from "../../server/audit/query.ts";

const api = apiServer();
const INDEX = "audit_events_tenant_id_lower_actor_email_timestamp_id_idx";
const T0 = Date.parse("2026-03-01T00:00:00Z");

let world: Awaited<ReturnType<typeof tenantWithMembers>>;
let base: string;
/** The seeded events' ids by actor email as sent, oldest first. */
const ids: Record<string, string[]> = {};

/** An application's actors: one person under two ids and two spellings, look-alikes, and no email. */
const SEED: Array<{ id: string; email: string | null; type: string }> = [
  { id: "ext-1", email: "Alice@Example.com", type: "invoice.paid" },
  { id: "ext-2", email: "bob@example.com", type: "invoice.paid" },
  { id: "ext-1", email: "Alice@Example.com", type: "app.login" },
  { id: "crm-77", email: "alice@example.com", type: "app.login" },
  { id: "ext-3", email: "alice@example.com.evil.test", type: "app.login" },
  { id: "ext-4", email: null, type: "app.login" },
  { id: "ext-5", email: "xalice@example.com", type: "invoice.paid" },
  { id: "ext-1", email: "ALICE@EXAMPLE.COM", type: "invoice.paid" },
];
const ALICE = (email: string | null) => email?.toLowerCase() === "alice@example.com";

beforeAll(async () => {
  world = await tenantWithMembers();
  base = `/api/v1/tenants/${world.tenant.id}/audit`;
  const { sql } = await database();
  for (const [i, actor] of SEED.entries()) {
    const { id } = await emitEvent(
      sql,
      { id: actor.id, email: actor.email, ip: null, userAgent: null },
      { type: actor.type, tenantId: world.tenant.id, timestamp: new Date(T0 + i * 60_000) },
    );
    (ids[String(actor.email)] ??= []).push(id);
  }
  // The same person in another tenant's log: never in this one's answers.
  const other = await tenantWithMembers();
  await emitEvent(
    sql,
    { id: "ext-1", email: "alice@example.com", ip: null, userAgent: null },
    { type: "app.login", tenantId: other.tenant.id },
  );
});

/** The seeded events matching `match`, newest first. */
const expected = (match: (s: (typeof SEED)[number]) => boolean) =>
  SEED.map((s, i) => ({ s, id: ids[String(s.email)]![SEED.slice(0, i).filter((p) => p.email === s.email).length]! }))
    .filter(({ s }) => match(s))
    .map(({ id }) => id)
    .reverse();

describe("GET …/audit?actor_email=", () => {
  test("finds every event whose actor was recorded with the email, in any case and under any actor id, newest first", async () => {
    const c = client(api.url, world.viewer.token);
    const res = await c.get(`${base}?actor_email=aLiCe@example.COM&page_size=3`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.count).toBe(4);
    const walked: string[] = res.json.results.map((e: { id: string }) => e.id);
    for (const e of res.json.results) expect(e.actor.email.toLowerCase()).toBe("alice@example.com");
    // The next page keeps the filter (cursor link).
    expect(new URL(res.json.next).searchParams.get("actor_email")).toBe("aLiCe@example.COM");
    const more = await c.get(`${base}?actor_email=aLiCe@example.COM&page_size=3&cursor=${res.json.next_cursor}`);
    walked.push(...more.json.results.map((e: { id: string }) => e.id));
    expect(more.json.next).toBeNull();
    expect(walked).toEqual(expected((s) => ALICE(s.email)));
  });

  test("combines with the other filters (AND), and an email nobody acted with finds nothing", async () => {
    const c = client(api.url, world.viewer.token);
    const byKind = await c.get(`${base}?actor_email=alice@example.com&event_type=invoice.*&actor_id=ext-1`);
    expect(byKind.json.results.map((e: { id: string }) => e.id)).toEqual(
      expected((s) => ALICE(s.email) && s.type === "invoice.paid" && s.id === "ext-1"),
    );
    expect(byKind.json.count).toBe(2);
    const byDate = await c.get(`${base}?actor_email=ALICE@example.com&start_date=2026-03-01T00:02:00Z&end_date=2026-03-01T00:07:00Z`);
    expect(byDate.json.results.map((e: { id: string }) => e.id)).toEqual(
      expected((s) => ALICE(s.email) && SEED.indexOf(s) >= 2 && SEED.indexOf(s) < 7),
    );
    expect(byDate.json.count).toBe(2);
    const nobody = await c.get(`${base}?actor_email=carol@example.com`);
    expect(nobody.json).toMatchObject({ count: 0, results: [] });
  });

  test.each([
    ["empty", "actor_email="],
    ["too long", `actor_email=${"a".repeat(310)}@example.com`],
  ])("a bad actor_email (%s) is a 400 naming it", async (_name, query) => {
    const res = await client(api.url, world.viewer.token).get(`${base}?${query}`);
    expect(res.status, res.text).toBe(400);
    expect(res.json.errors.map((e: { path: string }) => e.path)).toEqual(["actor_email"]);
  });

  test("the export takes the same filter", async () => {
    const res = await client(api.url, world.viewer.token).get(`${base}/export?format=json&actor_email=ALICE@example.com`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.map((e: { id: string }) => e.id)).toEqual(expected((s) => ALICE(s.email)));
  });

  test("the OpenAPI document describes it on the list and the export", async () => {
    const doc = await fetchOpenApiDocument(api.url);
    for (const path of ["/tenants/{tenant_id}/audit", "/tenants/{tenant_id}/audit/export"]) {
      const param = operationAt(doc, "GET", path).parameters.find((p) => p.name === "actor_email");
      // Described on its schema (as the list's other filters are) or on the parameter (the export's, hand-written).
      expect(param, path).toMatchObject({ in: "query" });
      expect(JSON.stringify(param), path).toMatch(/any letter case/);
      expect(param!.required ?? false).toBe(false);
    }
  });
});

describe("at scale, the filter reads its index", () => {
  const ROWS = 12_000;
  let tenantId: string;
  let sql: SqlRunner;
  beforeAll(async () => {
    tenantId = (await tenantWithMembers()).tenant.id;
    ({ sql } = await database());
    await sql.query(
      `INSERT INTO audit_events (tenant_id, event_type, actor_id, actor_email, "timestamp")
       SELECT $1::uuid, (ARRAY['app.login', 'invoice.paid'])[1 + g % 2], 'a' || g % 60, 'Person' || g % 60 || '@Example.com',
              now() - make_interval(secs => g)
         FROM generate_series(1, ${ROWS}) g ORDER BY g DESC`,
      [tenantId],
    );
    await sql.exec(`ANALYZE audit_events`);
  });

  /** Every statement the list runs for `params` (first page, a cursor page, the count), EXPLAINed. */
  async function plans(params: { actor_email: string; start_date?: string }) {
    const statements: Array<{ text: string; params: unknown[] }> = [];
    const recording: SqlRunner = {
      query: (text, values, options) => {
        if (/FROM audit_events e/.test(text)) statements.push({ text, params: values ?? [] });
        return sql.query(text, values, options);
      },
      exec: (script) => sql.exec(script),
      transaction: (fn) => sql.transaction(fn),
    };
    const head = await chainHead(sql, tenantId);
    const filter = resolveFilter(tenantId, params, head);
    const first = await findEvents(recording, filter, { order: "desc", skip: 0, take: 21 });
    expect(first).toHaveLength(21);
    const last = first[20]!;
    await findEvents(recording, filter, { after: { at: new Date(last.timestamp), id: last.id }, order: "desc", skip: 0, take: 21 });
    expect(await countEvents(recording, filter, head)).toBe(params.start_date ? 100 : ROWS / 60);
    return Promise.all(
      statements.map(async ({ text, params }) => {
        const [row] = await sql.query<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(`EXPLAIN (FORMAT JSON) ${text}`, params);
        return { text, plan: row!["QUERY PLAN"][0]!.Plan };
      }),
    );
  }

  test("pages and the count use the lower(actor_email) index; the count reads only the index", async () => {
    // The index's partitions, as Postgres names them on each month, and the months holding the rows.
    const names = (
      await sql.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass`,
        [INDEX],
      )
    ).map((r) => r.name);
    const months = (
      await sql.query<{ month: string }>(`SELECT DISTINCT tableoid::regclass::text AS month FROM audit_events WHERE tenant_id = $1::uuid`, [
        tenantId,
      ])
    ).map((r) => r.month);
    const since = new Date(Date.now() - 6_000_000).toISOString();
    for (const params of [{ actor_email: "PERSON7@example.com" }, { actor_email: "person7@example.com", start_date: since }]) {
      const explained = await plans(params);
      expect(explained).toHaveLength(3);
      for (const { text, plan } of explained) {
        // The scans of the months with rows (empty months are read as they like: nothing to read).
        const scans = scanNodes(plan).filter((node) => months.includes(node["Relation Name"] ?? ""));
        expect(scans.length, `${text}\n${JSON.stringify(plan)}`).toBeGreaterThan(0);
        const kind = /count\(\*\)/.test(text) ? ["Index Only Scan"] : ["Index Scan", "Index Only Scan"];
        for (const scan of scans) {
          expect(kind, `${text}\n${JSON.stringify(scan)}`).toContain(scan["Node Type"]);
          expect(names, `${text}\n${JSON.stringify(scan)}`).toContain(scan["Index Name"]);
        }
      }
    }
  });
});

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; Plans?: PlanNode[] };

/** The nodes of a plan that read a relation. */
function scanNodes(node: PlanNode): PlanNode[] {
  const below = (node.Plans ?? []).flatMap(scanNodes);
  return node["Relation Name"] ? [node, ...below] : below;
}
