/**
 * The audit list's `actor_email` filter on a populated log: a database migrated up to the migration
 * before 20261203000000_audit_actor_email is seeded (bench/audit-seed.ts: 200 actors, emails
 * `userN@example.com`), then that migration (the index) is timed, and the list's first page,
 * a cursor page and the count for one email are EXPLAIN ANALYZEd as the list runs them.
 *
 *   node --import tsx --import ./scripts/server-only.mjs bench/audit-actor-email.ts [--events 1000000] [--tenants 2]
 */
import { cpSync, mkdtempSync, readdirSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { connectPostgres } from "../server/db/client.ts";
import { DEFAULT_MIGRATIONS_DIR, migrate } from "../server/db/migrate.ts";
import type { SqlRunner } from "../server/db/sql.ts";
import { chainHead, countEvents, findEvents, resolveFilter } from "../server/audit/query.ts";
import { ADMIN_URL, log, withClient } from "./harness.ts";
import { seedAudit } from "./audit-seed.ts";

const MIGRATION = "20261203000000_audit_actor_email";
const { values } = parseArgs({ options: { events: { type: "string", default: "1000000" }, tenants: { type: "string", default: "2" } } });
const DB = "cp_bench_audit_actor_email";
const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${DB}` }).toString();

const before = mkdtempSync(path.join(tmpdir(), "cp-migrations-"));
for (const name of readdirSync(DEFAULT_MIGRATIONS_DIR)) {
  if (name < MIGRATION || name === "migration_lock.toml")
    cpSync(path.join(DEFAULT_MIGRATIONS_DIR, name), path.join(before, name), { recursive: true });
}
await withClient(ADMIN_URL, async (c) => {
  await c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await c.query(`CREATE DATABASE ${DB}`);
});
const db = connectPostgres(url, 2);
try {
  await migrate(db.sql, before);
  const { tenantIds } = await seedAudit(url, { tenants: Number(values.tenants), events: Number(values.events), exportEvents: 0 }, log);
  const started = performance.now();
  await migrate(db.sql);
  log(`${MIGRATION}: ${((performance.now() - started) / 1000).toFixed(1)} s; load average ${loadavg()[0]!.toFixed(1)}`);
  await db.sql.exec("ANALYZE audit_events");

  const tenantId = tenantIds[0]!;
  const statements: Array<{ text: string; params: unknown[] }> = [];
  const recording: SqlRunner = {
    query: (text, params, options) => {
      statements.push({ text, params: params ?? [] });
      return db.sql.query(text, params, options);
    },
    exec: (script) => db.sql.exec(script),
    transaction: (fn) => db.sql.transaction(fn),
  };
  const head = await chainHead(db.sql, tenantId);
  const filter = resolveFilter(tenantId, { actor_email: "USER7@example.com" }, head);
  const first = await findEvents(recording, filter, { order: "desc", skip: 0, take: 21 });
  const last = first[20]!;
  await findEvents(recording, filter, { after: { at: new Date(last.timestamp), id: last.id }, order: "desc", skip: 0, take: 21 });
  log(`count for USER7@example.com: ${await countEvents(recording, filter, head)} of the tenant's ${head.sequence}`);
  for (const { text, params } of statements) {
    const plan = await db.sql.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, SUMMARY ON) ${text}`, params);
    const lines = plan.map((r) => r["QUERY PLAN"]);
    log(
      `${text.replace(/\s+/g, " ").slice(0, 140)}…\n  ${lines
        // The partitions that hold rows (the empty months' scans read nothing).
        .filter((l) => /Scan|Execution|Planning Time|Heap Fetches|Buffers/.test(l) && !/actual rows=0 /.test(l))
        .join("\n  ")}`,
    );
  }
} finally {
  await db.close();
}
