/**
 * The list's `count` comes from rollups (server/audit/counts.ts): it must equal a brute-force
 * count(*) for every filter combination, with date edges on, just before and just after hour, day
 * and month boundaries and inside a month (where one actor's count is its rollup months plus its
 * partial months counted row by row), with events appended while counting, after the upgrade that
 * dropped per-actor day rollups, and on the embedded database too.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, inject, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { createDatabase } from "../support/databases.ts";
import { migrationsBefore } from "../support/migrations.ts";
import { client, tenantWithMembers } from "../support/fixtures.ts";
import { ALL_KINDS_MISMATCHES } from "../support/audit-rollups.ts";
import { connectPostgres, database, openPglite } from "../../server/db/client.ts";
import type { SqlRunner } from "../../server/db/sql.ts";
import { migrate } from "../../server/db/migrate.ts";
import { chainHead, countEvents, resolveFilter, type AuditFilterParams } from "../../server/audit/query.ts";
import { planCount } from "../../server/audit/counts.ts";

const KINDS = ["user.login", "user.created", "invoice.paid", "document.viewed"];
const ACTORS = ["a1", "a2", "a3", null];
const HOUR = 3_600_000;

/** Deterministic pseudo-random numbers (a test that fails must fail the same way again). */
function random(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** Instants crowded around month, day and hour boundaries of Jan–Apr 2026, and some anywhere. */
function instants(n: number, rand: () => number): Date[] {
  const anchors = [
    "2026-01-01T00:00:00Z",
    "2026-02-01T00:00:00Z",
    "2026-03-01T00:00:00Z",
    "2026-03-15T00:00:00Z",
    "2026-03-15T13:00:00Z",
    "2026-03-31T23:00:00Z",
    "2026-04-01T00:00:00Z",
    "2026-04-01T01:00:00Z",
  ].map(Date.parse);
  const offsets = [-HOUR - 1, -HOUR / 2, -1, 0, 1, 999, HOUR / 2, HOUR - 1, HOUR, 25 * HOUR];
  return Array.from({ length: n }, () =>
    rand() < 0.7
      ? new Date(anchors[Math.floor(rand() * anchors.length)]! + offsets[Math.floor(rand() * offsets.length)]!)
      : new Date(Date.parse("2025-12-20T00:00:00Z") + Math.floor(rand() * 120 * 24 * HOUR)),
  );
}

/** Appends events through the chain and count triggers, in statements of varying size. */
async function seed(sql: SqlRunner, tenantId: string, n: number, seedValue: number): Promise<void> {
  const rand = random(seedValue);
  const at = instants(n, rand);
  for (let done = 0; done < n;) {
    const size = Math.min(n - done, 1 + Math.floor(rand() * 60));
    const rows = at.slice(done, done + size).map(() => ({
      kind: KINDS[Math.floor(rand() * KINDS.length)]!,
      actor: ACTORS[Math.floor(rand() * ACTORS.length)]!,
    }));
    await sql.query(
      `INSERT INTO audit_events (tenant_id, event_type, actor_id, "timestamp")
       SELECT $1::uuid, k, a, t FROM unnest($2::text[], $3::text[], $4::timestamptz[]) AS v(k, a, t)`,
      [tenantId, rows.map((r) => r.kind), rows.map((r) => r.actor), at.slice(done, done + size)],
    );
    done += size;
  }
}

const DATES: [string | undefined, string | undefined][] = [
  [undefined, undefined],
  ["2026-02-01", undefined],
  [undefined, "2026-03-15T13:30:00Z"],
  ["2026-01-01T00:00:00.001Z", "2026-03-31T23:59:59.999Z"],
  ["2026-01-31T23:30:00Z", "2026-04-01T00:30:00Z"],
  ["2026-03-15T13:00:00Z", "2026-03-15T14:00:00Z"],
  ["2026-03-15T13:00:00.001Z", "2026-03-15T13:59:59.999Z"],
  ["2026-03-14T23:59:59.999Z", "2026-03-16T00:00:00.001Z"],
  ["2026-03-01", "2026-04-01"],
  ["2026-03-31T23:00:00Z", "2026-04-01T01:00:00Z"],
  ["2026-01-15T07:12:00Z", "2026-03-02T00:00:00Z"],
  ["2026-04-01T00:00:00Z", "2026-04-01T00:00:00.001Z"],
  // Both edges inside one month, in two neighbouring months, and one inside a month to the end.
  ["2026-03-02T05:17:00Z", "2026-03-29T00:00:00Z"],
  ["2026-02-14T12:00:00Z", "2026-03-15T13:00:00.001Z"],
  ["2026-01-31T23:59:59.999Z", "2026-03-01T00:00:00.001Z"],
  ["2026-03-15T13:30:00Z", undefined],
];
const TYPES = [undefined, "user.login", "user.*", "user.login,invoice.paid", "nothing.here"];
const ACTOR_FILTERS = [undefined, "a1", "a3", "nobody"];

function combos(): AuditFilterParams[] {
  const out: AuditFilterParams[] = [];
  for (const [start_date, end_date] of DATES)
    for (const event_type of TYPES) for (const actor_id of ACTOR_FILTERS) out.push({ start_date, end_date, event_type, actor_id });
  return out;
}

/** count(*) over the rows themselves, the filter written out independently. */
async function bruteCount(sql: SqlRunner, tenantId: string, p: AuditFilterParams): Promise<number> {
  const params: unknown[] = [tenantId];
  let where = "tenant_id = $1::uuid";
  if (p.event_type) {
    const exact = p.event_type.split(",").filter((k) => !k.endsWith(".*"));
    const prefixes = p.event_type
      .split(",")
      .filter((k) => k.endsWith(".*"))
      .map((k) => k.slice(0, -1));
    where += ` AND (event_type = ANY($${params.push(exact)}::text[]) OR event_type LIKE ANY($${params.push(prefixes.map((x) => `${x}%`))}::text[]))`;
  }
  if (p.actor_id) where += ` AND actor_id = $${params.push(p.actor_id)}`;
  if (p.start_date) where += ` AND "timestamp" >= $${params.push(new Date(p.start_date))}::timestamptz`;
  if (p.end_date) where += ` AND "timestamp" < $${params.push(new Date(p.end_date))}::timestamptz`;
  const [row] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_events WHERE ${where}`, params);
  return row!.n;
}

function query(p: AuditFilterParams): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(p)) if (v !== undefined) q.set(k, v);
  return q.toString();
}

async function serviceCount(sql: SqlRunner, tenantId: string, p: AuditFilterParams): Promise<number> {
  const head = await chainHead(sql, tenantId);
  return countEvents(sql, resolveFilter(tenantId, p, head), head);
}

describe("count plans", () => {
  test("whole buckets come from the coarsest grain, partial edges are counted", () => {
    const plan = planCount([new Date("2026-01-31T22:30:00Z"), new Date("2026-04-02T01:15:00Z")], ["hour", "day", "month"]);
    expect(plan.exact.map((r) => r.map((d) => d?.toISOString()))).toEqual([
      ["2026-01-31T22:30:00.000Z", "2026-01-31T23:00:00.000Z"],
      ["2026-04-02T01:00:00.000Z", "2026-04-02T01:15:00.000Z"],
    ]);
    expect(plan.sums.map((s) => [s.grain, ...s.range.map((d) => d?.toISOString())])).toEqual([
      ["hour", "2026-01-31T23:00:00.000Z", "2026-02-01T00:00:00.000Z"],
      ["hour", "2026-04-02T00:00:00.000Z", "2026-04-02T01:00:00.000Z"],
      ["day", "2026-04-01T00:00:00.000Z", "2026-04-02T00:00:00.000Z"],
      ["month", "2026-02-01T00:00:00.000Z", "2026-04-01T00:00:00.000Z"],
    ]);
    expect(planCount([null, null], ["day", "month"])).toEqual({ exact: [], sums: [{ grain: "month", range: [null, null] }] });
  });
});

describe("list counts on Postgres", () => {
  const api = apiServer();
  let world: Awaited<ReturnType<typeof tenantWithMembers>>;
  let sql: SqlRunner;
  beforeAll(async () => {
    sql = (await database()).sql;
    world = await tenantWithMembers();
    await seed(sql, world.tenant.id, 1500, 7);
    const other = await tenantWithMembers();
    await seed(sql, other.tenant.id, 200, 8);
  });

  test("the envelope's count equals count(*) for every filter combination", async () => {
    const c = client(api.url, world.viewer.token);
    const mismatches: string[] = [];
    for (const p of combos()) {
      const res = await c.get(`/api/v1/tenants/${world.tenant.id}/audit?${query(p)}`);
      expect(res.status, res.text).toBe(200);
      const expected = await bruteCount(sql, world.tenant.id, p);
      if (res.json.count !== expected) mismatches.push(`${query(p)}: ${res.json.count} != ${expected}`);
    }
    expect(mismatches).toEqual([]);
    // The combinations are not vacuous: most match something, not everything.
    const all = await bruteCount(sql, world.tenant.id, {});
    expect(all).toBe(1500);
  });

  test("each bucket's row of every kind ('*') holds the sum of its kinds' rows", async () => {
    expect(await sql.query(ALL_KINDS_MISMATCHES)).toEqual([]);
    const [all] = await sql.query<{ n: string }>(
      `SELECT sum(n) AS n FROM audit_counts WHERE chain_id = $1::uuid AND actor_id = '' AND grain = 'month' AND event_type = '*'`,
      [world.tenant.id],
    );
    expect(Number(all!.n)).toBe(1500);
  });

  test("one actor's rollups are kept per month only; every actor's per hour, day and month", async () => {
    const rows = await sql.query<{ per_actor: boolean; grains: string[] }>(
      `SELECT actor_id <> '' AS per_actor, array_agg(DISTINCT grain ORDER BY grain) AS grains
         FROM audit_counts WHERE chain_id = $1::uuid GROUP BY 1 ORDER BY 1`,
      [world.tenant.id],
    );
    expect(rows).toEqual([
      { per_actor: false, grains: ["day", "hour", "month"] },
      { per_actor: true, grains: ["month"] },
    ]);
  });

  test("cursor pages carry the same exact count", async () => {
    const c = client(api.url, world.viewer.token);
    const p = { event_type: "user.*", start_date: "2026-01-31T23:30:00Z", end_date: "2026-04-01T00:30:00Z" };
    const first = await c.get(`/api/v1/tenants/${world.tenant.id}/audit?${query(p)}`);
    const second = await c.get(first.json.next);
    expect(second.status).toBe(200);
    expect(second.json.count).toBe(await bruteCount(sql, world.tenant.id, p));
    expect(first.json.count).toBe(second.json.count);
  });

  test("counts stay exact while events are appended concurrently", async () => {
    const tenant = (await tenantWithMembers()).tenant.id;
    await seed(sql, tenant, 300, 11);
    let appending = true;
    const writers = [1, 2, 3].map(async (w) => {
      for (let i = 0; appending; i++) await seed(sql, tenant, 20, 100 * w + i);
    });
    const samples = combos().filter((_, i) => i % 7 === 0);
    try {
      for (const p of samples) {
        // One snapshot for the service's count and the brute count, while the writers go on.
        const [counted, brute] = await sql.transaction(async (tx) => {
          await tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
          return [await serviceCount(tx, tenant, p), await bruteCount(tx, tenant, p)];
        });
        expect(counted, query(p)).toBe(brute);
      }
    } finally {
      appending = false;
      await Promise.all(writers);
    }
    const total = await bruteCount(sql, tenant, {});
    expect(total).toBeGreaterThan(300);
    for (const p of samples) expect(await serviceCount(sql, tenant, p), query(p)).toBe(await bruteCount(sql, tenant, p));
  });
});

describe("upgrading to month-only rollups per actor", () => {
  test("per-actor day rows go, month rows stay, and every count stays exact, then and after new appends", async () => {
    const url = await createDatabase(`${inject("runPrefix")}_counts_upgrade_${process.pid}`);
    const db = connectPostgres(url, 2);
    try {
      await migrate(db.sql, migrationsBefore("20261127030000"));
      const [tenant] = await db.sql.query<{ id: string }>(`INSERT INTO tenants (name) VALUES ('Before') RETURNING id`);
      await seed(db.sql, tenant!.id, 600, 3);
      const monthRows = `SELECT actor_id, bucket, event_type, n::int AS n FROM audit_counts
                          WHERE actor_id <> '' AND grain = 'month' AND event_type <> '*' ORDER BY 1, 2, 3`;
      const months = await db.sql.query(monthRows);
      const dayRows = `SELECT count(*)::int AS n FROM audit_counts WHERE actor_id <> '' AND grain <> 'month'`;
      expect((await db.sql.query<{ n: number }>(dayRows))[0]!.n).toBeGreaterThan(0);

      const { applied } = await migrate(db.sql);
      expect(applied).toContain("20261127030000_audit_counts_actor_months");
      expect((await db.sql.query<{ n: number }>(dayRows))[0]!.n).toBe(0);
      expect(await db.sql.query(monthRows)).toEqual(months);

      await seed(db.sql, tenant!.id, 200, 4);
      expect((await db.sql.query<{ n: number }>(dayRows))[0]!.n).toBe(0);
      const mismatches: string[] = [];
      // Every combination: the later migration's rows of every kind ('*') are summed from these.
      for (const p of combos()) {
        const [counted, brute] = [await serviceCount(db.sql, tenant!.id, p), await bruteCount(db.sql, tenant!.id, p)];
        if (counted !== brute) mismatches.push(`${query(p)}: ${counted} != ${brute}`);
      }
      expect(mismatches).toEqual([]);
    } finally {
      await db.close();
    }
  }, 120_000);
});

describe("list counts on the embedded database", () => {
  test("rollups are kept and summed the same way on PGlite", async () => {
    const lite = await openPglite(mkdtempSync(path.join(tmpdir(), "cp-counts-")));
    try {
      await migrate(lite.sql);
      const [tenant] = await lite.sql.query<{ id: string }>(`INSERT INTO tenants (name) VALUES ('Embedded') RETURNING id`);
      await seed(lite.sql, tenant!.id, 400, 5);
      const mismatches: string[] = [];
      for (const p of combos().filter((_, i) => i % 3 === 0)) {
        const [counted, brute] = [await serviceCount(lite.sql, tenant!.id, p), await bruteCount(lite.sql, tenant!.id, p)];
        if (counted !== brute) mismatches.push(`${query(p)}: ${counted} != ${brute}`);
      }
      expect(mismatches).toEqual([]);
    } finally {
      await lite.close();
    }
  }, 120_000);
});
