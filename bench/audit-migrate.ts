/**
 * Times the upgrade of a populated audit log: a database migrated up to 20261122020000 (the
 * schema before count rollups and partitions) is seeded through that schema's chain trigger,
 * then the remaining migrations run with the project's runner, timed.
 *
 *   node --import tsx --import ./scripts/server-only.mjs bench/audit-migrate.ts [--events 1000000] [--tenants 10]
 */
import { cpSync, mkdtempSync, readdirSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { connectPostgres } from "../server/db/client.ts";
import { DEFAULT_MIGRATIONS_DIR, migrate } from "../server/db/migrate.ts";
import { ADMIN_URL, log, withClient } from "./harness.ts";
import { seedAudit } from "./audit-seed.ts";

const { values } = parseArgs({ options: { events: { type: "string", default: "1000000" }, tenants: { type: "string", default: "10" } } });
const DB = "cp_bench_audit_migrate";
const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${DB}` }).toString();

const old = mkdtempSync(path.join(tmpdir(), "cp-old-migrations-"));
for (const name of readdirSync(DEFAULT_MIGRATIONS_DIR)) {
  if (name <= "20261122020000_webhooks" || name === "migration_lock.toml")
    cpSync(path.join(DEFAULT_MIGRATIONS_DIR, name), path.join(old, name), { recursive: true });
}
await withClient(ADMIN_URL, async (c) => {
  await c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await c.query(`CREATE DATABASE ${DB}`);
});
const db = connectPostgres(url, 2);
try {
  await migrate(db.sql, old);
  await seedAudit(url, { tenants: Number(values.tenants), events: Number(values.events), exportEvents: 0 }, log);
  const started = performance.now();
  const { applied } = await migrate(db.sql);
  const seconds = (performance.now() - started) / 1000;
  const [row] = await db.sql.query<{ n: string }>(`SELECT count(*) AS n FROM audit_events`);
  log(
    `migrated ${Number(row!.n).toLocaleString("en")} events in ${seconds.toFixed(1)} s (${applied.join(", ")}); load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(", ")}`,
  );
} finally {
  await db.close();
  await withClient(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`));
}
