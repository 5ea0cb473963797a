/**
 * The platform search and a tenant's target filters are served by indexes at scale: a million
 * events over 1,000 tenants and six monthly partitions, written straight in SQL (triggers off:
 * the chain columns only need plausible values, the planner's view is what is tested), then
 * ANALYZEd. The statements are the ones the services issue (recorded from their SqlRunner, never
 * rewritten here), each run under EXPLAIN (FORMAT JSON) with its parameters: none may read an
 * audit partition by a sequential scan, and each filter's page must read its own index.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { database } from "../../server/db/client.ts";
import type { SqlRunner } from "../../server/db/sql.ts";
import type { Principal } from "../../server/auth/principal.ts";
import type { ServiceContext, TenantServiceContext } from "../../server/service-context.ts";
import { searchEvents } from "../../server/audit/search.ts";
import { listEvents } from "../../server/audit/service.ts";
import { pageRequest } from "../../server/contract/pagination.ts";
import { createUser } from "../support/fixtures.ts";

const EVENTS = 1_000_000;
const TENANTS = 1_000;
/** Whole past months, before this one. */
const MONTHS = 6;
const KINDS = [
  "user.login",
  "user.created",
  "user.updated",
  "sso_provider.updated",
  "webhook.created",
  "invoice.paid",
  "app.login",
  "app.logout",
];

let admin: pg.Client;
let operator: Principal;
/** The partitions that hold events: a sequential scan of an empty one (the months ahead, DEFAULT) reads nothing. */
let withRows: Set<string>;
let targetTenant: string;
/** Each partition's index by the partitioned index it belongs to (Postgres names the partitions' own). */
let parentIndex: Map<string, string>;
let seedMs = 0;

beforeAll(async () => {
  const started = Date.now();
  admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  const user = await createUser({ platformRole: "operator" });
  operator = { userId: user.id, email: user.email, platformRole: "operator", via: "token", token: null, sessionId: null };
  await admin.query(`INSERT INTO tenants (id, name) SELECT gen_random_uuid(), 'Tenant ' || g FROM generate_series(1, ${TENANTS}) g`);
  // Written as they are (no chain trigger: plausible chain columns), into a bare table first, then
  // moved into one new table per past month, each attached as its partition: Postgres builds each
  // index of audit_events on it in one sorted pass, several times faster than inserting into them.
  await admin.query(
    `CREATE UNLOGGED TABLE audit_seed AS
     WITH t AS (SELECT array_agg(id ORDER BY id) AS ids FROM tenants WHERE name LIKE 'Tenant %'),
          span AS (SELECT date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS hi,
                          (date_trunc('month', now() AT TIME ZONE 'UTC') - INTERVAL '${MONTHS} months') AT TIME ZONE 'UTC' AS lo)
     SELECT gen_random_uuid() AS id, t.ids[1 + g % ${TENANTS}] AS tenant_id, ($1::text[])[1 + (g / 7) % ${KINDS.length}] AS event_type,
            'actor-' || (g % 20000) AS actor_id, 'person' || (g % 20000) || '@t' || (g % ${TENANTS}) || '.example' AS actor_email,
            (ARRAY['user', 'webhook', 'sso_provider', 'invoice'])[1 + (g / 3) % 4] AS target_type, 'target-' || (g % 200000) AS target_id,
            date_trunc('milliseconds', span.lo + (span.hi - span.lo) * (g::float8 / ${EVENTS})) AS ts, 1 + g / ${TENANTS} AS sequence
       FROM t, span, generate_series(0, ${EVENTS - 1}) g`,
    [KINDS],
  );
  await admin.query(`DO $$
    DECLARE m TIMESTAMPTZ; name TEXT;
    BEGIN
      FOR i IN 1..${MONTHS} LOOP
        m := (date_trunc('month', now() AT TIME ZONE 'UTC') - make_interval(months => i)) AT TIME ZONE 'UTC';
        name := 'audit_events_' || to_char(m AT TIME ZONE 'UTC', 'YYYY_MM');
        EXECUTE format('CREATE TABLE %I (LIKE audit_events INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', name);
        EXECUTE format('INSERT INTO %I (id, tenant_id, event_type, actor_id, actor_email, target_type, target_id, "timestamp",
                          recorded_at, sequence, prev_hash, hash)
                        SELECT id, tenant_id, event_type, actor_id, actor_email, target_type, target_id, ts, ts, sequence,
                               repeat(''0'', 64), repeat(''0'', 64)
                          FROM audit_seed WHERE ts >= %L AND ts < %L', name, m, m + INTERVAL '1 month');
        EXECUTE format('ALTER TABLE audit_events ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', name, m, m + INTERVAL '1 month');
      END LOOP;
    END $$`);
  await admin.query(`DROP TABLE audit_seed`);
  await admin.query(
    `INSERT INTO audit_chains (chain_id, sequence, hash, event_types)
     SELECT id, ${EVENTS / TENANTS}, repeat('0', 64), (SELECT jsonb_object_agg(k, 1) FROM unnest($1::text[]) k) FROM tenants
     WHERE name LIKE 'Tenant %'`,
    [KINDS],
  );
  // As autovacuum leaves an append-only table: statistics, and its pages marked all-visible.
  await admin.query(`VACUUM ANALYZE audit_events`);
  withRows = new Set(
    (
      await admin.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'audit_events'::regclass AND c.reltuples > 0`,
      )
    ).rows.map((r) => r.name),
  );
  expect(withRows.size).toBe(MONTHS);
  parentIndex = new Map(
    (
      await admin.query<{ child: string; parent: string }>(
        `SELECT c.relname AS child, p.relname AS parent FROM pg_inherits i
           JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
          WHERE p.relkind = 'I' AND p.relname LIKE 'audit_events%'`,
      )
    ).rows.map((r) => [r.child, r.parent]),
  );
  targetTenant = (await admin.query<{ id: string }>(`SELECT tenant_id AS id FROM audit_events WHERE target_id = 'target-4242' LIMIT 1`))
    .rows[0]!.id;
  seedMs = Date.now() - started;
}, 300_000);

afterAll(async () => {
  await admin?.end();
});

/** A runner that records every statement it is given (and runs it): what the service issues. */
function recording(sql: SqlRunner, seen: Array<{ text: string; params: unknown[] }>): SqlRunner {
  return {
    query: (text, params = [], options) => {
      seen.push({ text, params });
      return sql.query(text, params, options);
    },
    exec: (script) => sql.exec(script),
    transaction: (fn) => sql.transaction((tx) => fn(recording(tx, seen))),
  };
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** Each recorded read of audit_events under EXPLAIN: the nodes of its plan. */
async function plansOf(seen: Array<{ text: string; params: unknown[] }>) {
  const reads = seen.filter((s) => /FROM audit_events/.test(s.text) && !/^\s*INSERT/i.test(s.text));
  expect(reads.length).toBeGreaterThan(0);
  const plans = [];
  for (const read of reads) {
    const { rows } = await admin.query<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(`EXPLAIN (FORMAT JSON) ${read.text}`, read.params);
    plans.push({ text: read.text, nodes: nodesOf(rows[0]!["QUERY PLAN"][0]!.Plan) });
  }
  return plans;
}

/** No partition holding events is read whole, and the page reads `index` (in its partitions). */
function expectIndexed(plans: Awaited<ReturnType<typeof plansOf>>, index: string) {
  for (const plan of plans) {
    const seqScans = plan.nodes.filter((n) => n["Node Type"] === "Seq Scan" && withRows.has(n["Relation Name"] ?? ""));
    expect(
      seqScans.map((n) => n["Relation Name"]),
      plan.text,
    ).toEqual([]);
  }
  const used = new Set(
    plans.flatMap((p) => p.nodes.flatMap((n) => (n["Index Name"] ? [parentIndex.get(n["Index Name"]) ?? n["Index Name"]] : []))),
  );
  expect([...used]).toContain(index);
}

async function searchPlans(query: Record<string, string>) {
  const { sql, ...db } = await database();
  const seen: Array<{ text: string; params: unknown[] }> = [];
  const ctx: ServiceContext = {
    db: { ...db, sql: recording(sql, seen) },
    actor: { principal: operator, request: { requestId: "plans", ip: null, userAgent: null } },
  };
  const first = await searchEvents(ctx, { ...query, page: pageRequest({ page_size: 50 }) });
  expect(first.items.length, JSON.stringify(query)).toBeGreaterThan(0);
  if (first.nextCursor) await searchEvents(ctx, { ...query, page: pageRequest({ page_size: 50, cursor: first.nextCursor }) });
  return plansOf(seen);
}

describe(`${EVENTS.toLocaleString("en")} events over ${TENANTS.toLocaleString("en")} tenants`, () => {
  test("seeded within reason", () => {
    // Measured on a loaded 2-core machine; the bound only catches a seed gone quadratic.
    console.info(`audit-search-plans: seeded ${EVENTS} events in ${seedMs} ms`);
    expect(seedMs).toBeLessThan(150_000);
  });

  test("search by actor email reads (lower(actor_email), timestamp, id), never a partition's heap in full", async () => {
    expectIndexed(await searchPlans({ actor_email: "Person42@t42.example" }), "audit_events_lower_actor_email_timestamp_id_idx");
  });

  test("by actor id", async () => {
    expectIndexed(await searchPlans({ actor_id: "actor-4242" }), "audit_events_actor_id_timestamp_id_idx");
  });

  test("by target id and type", async () => {
    expectIndexed(await searchPlans({ target_id: "target-4242", target_type: "sso_provider" }), "audit_events_target_id_timestamp_id_idx");
  });

  test("by event type, exact and by prefix, with dates", async () => {
    expectIndexed(await searchPlans({ event_type: "invoice.paid" }), "audit_events_event_type_timestamp_id_idx");
    const from = new Date(Date.now() - 40 * 86_400_000).toISOString();
    expectIndexed(await searchPlans({ event_type: "app.*", start_date: from }), "audit_events_event_type_timestamp_id_idx");
  });

  test("a tenant's list by target id, and by target type", async () => {
    const { sql, ...db } = await database();
    const seen: Array<{ text: string; params: unknown[] }> = [];
    const ctx: TenantServiceContext = {
      db: { ...db, sql: recording(sql, seen) },
      actor: { principal: operator, request: { requestId: "plans", ip: null, userAgent: null } },
      tenantId: targetTenant,
    };
    const byId = await listEvents(ctx, { target_id: "target-4242", page: pageRequest({ page_size: 50 }) });
    expect(byId.count).toBeGreaterThan(0);
    expectIndexed(await plansOf(seen), "audit_events_target_id_timestamp_id_idx");
    seen.length = 0;
    const byType = await listEvents(ctx, { target_type: "invoice", page: pageRequest({ page_size: 50 }) });
    expect(byType.items.length).toBe(50);
    expectIndexed(await plansOf(seen), "audit_events_tenant_id_target_type_timestamp_id_idx");
  });
});
