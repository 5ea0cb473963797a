/**
 * The audit list's hot statements (keyset pages and rollup counts) run as named prepared
 * statements with their LIMIT written as a number, so Postgres plans them once per connection and
 * then reuses a generic plan: planning spans the monthly partitions of audit_events and costs more
 * than executing them (docs/benchmarks/audit.md). Keyset pages run on the connections that keep generic plans
 * (GENERIC_PLANS): Postgres never re-plans them. Offset pages stay unnamed; the names are bounded.
 *
 * Runs in a process of its own (vitest.config.ts): the budget of statement names is the process's,
 * and files run before it in a shared one would have spent it.
 */
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { tenantWithMembers } from "../support/fixtures.ts";
import { database } from "../../server/db/client.ts";
import { GENERIC_PLANS, pgRunner, statementName, type SqlRunner } from "../../server/db/sql.ts";
import { chainHead, countEvents, findEvents, resolveFilter } from "../../server/audit/query.ts";

let pool: pg.Pool;
let genericPool: pg.Pool;
let one: SqlRunner;
let tenantId: string;
beforeAll(async () => {
  tenantId = (await tenantWithMembers()).tenant.id;
  const { sql } = await database();
  await sql.query(
    `INSERT INTO audit_events (tenant_id, event_type, actor_id, "timestamp")
     SELECT $1::uuid, (ARRAY['user.login', 'user.created', 'invoice.paid'])[1 + g % 3], 'a' || g % 5, now() - make_interval(mins => g)
       FROM generate_series(1, 300) g ORDER BY g DESC`,
    [tenantId],
  );
  // One connection each, so their sessions' prepared statements are the ones the runner made.
  pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
  genericPool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1, options: GENERIC_PLANS });
  one = pgRunner(pool, genericPool);
});
afterAll(async () => {
  await Promise.all([pool.end(), genericPool.end()]);
});

const prepared = (on: pg.Pool) =>
  on
    .query<{ statement: string; generic_plans: string; custom_plans: string }>(
      `SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'cp\\_%'`,
    )
    .then((r) => r.rows.filter((s) => /audit_events/.test(s.statement)));

test("keyset pages without an actor and counts are prepared once per connection; those pages keep the generic plan", async () => {
  const head = await chainHead(one, tenantId);
  const params = { event_type: "user.*", start_date: "2020-01-01T00:00:30Z" };
  for (const filter of [resolveFilter(tenantId, params, head), resolveFilter(tenantId, { ...params, actor_id: "a1" }, head)]) {
    for (let i = 0; i < 8; i++) {
      const page = await findEvents(one, filter, { order: "desc", skip: 0, take: 21 });
      expect(page.length).toBe(21);
      await findEvents(one, filter, { after: { at: new Date(page[20]!.timestamp), id: page[20]!.id }, order: "desc", skip: 0, take: 21 });
      await countEvents(one, filter, head);
    }
    await findEvents(one, filter, { order: "desc", skip: 40, take: 20 });
  }
  // First page and cursor page without an actor on the generic connection, never re-planned.
  const pages = await prepared(genericPool);
  expect(pages).toHaveLength(2);
  for (const s of pages) {
    expect(s.statement).not.toMatch(/LIMIT \$|actor_id =/);
    expect(Number(s.generic_plans)).toBe(8);
    expect(Number(s.custom_plans)).toBe(0);
  }
  // On the other: both counts, named (8 runs each). An actor's pages are planned per call (unnamed).
  const others = await prepared(pool);
  expect(others).toHaveLength(2);
  for (const s of others) {
    expect(s.statement).not.toMatch(/ORDER BY/);
    expect(Number(s.generic_plans) + Number(s.custom_plans)).toBe(8);
  }
});

test("names are bounded: past the budget of partitioned plans, statements run unnamed", () => {
  const names = Array.from({ length: 100 }, (_, i) => statementName(`SELECT ${i} FROM audit_events`));
  expect(names.filter(Boolean).length).toBeLessThan(100);
  expect(names.at(-1)).toBeUndefined();
  expect(statementName(`SELECT 0 FROM audit_events`)).toBe(names[0]);
});
