/**
 * Applies prisma/migrations/<name>/migration.sql in name order and records each in
 * `_prisma_migrations` exactly as `prisma migrate deploy` does (same table, same SHA-256 checksum
 * of the file), so either tool can take over. All pending migrations run in one transaction under
 * the advisory lock Prisma uses, so concurrent starts apply each migration once. An applied
 * migration whose file changed, or one that failed half-way, stops the run.
 */
import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { SqlRunner } from "./sql.ts";

/** The advisory lock id prisma migrate uses. */
const PRISMA_MIGRATE_LOCK = 72707369;

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
);`;

export interface MigrationFile {
  name: string;
  script: string;
  checksum: string;
}

export class MigrationError extends Error {
  override name = "MigrationError";
}

export const DEFAULT_MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");

export function readMigrations(dir = DEFAULT_MIGRATIONS_DIR): MigrationFile[] {
  return readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(/*turbopackIgnore: true*/ path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const script = readFileSync(/*turbopackIgnore: true*/ path.join(dir, name, "migration.sql"), "utf8");
      return { name, script, checksum: createHash("sha256").update(script).digest("hex") };
    });
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: number;
}

export async function migrate(sql: SqlRunner, dir = DEFAULT_MIGRATIONS_DIR): Promise<MigrateResult> {
  const migrations = readMigrations(dir);
  return sql.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [PRISMA_MIGRATE_LOCK]);
    await tx.exec(CREATE_TABLE);
    const rows = await tx.query<AppliedRow>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"
       WHERE rolled_back_at IS NULL ORDER BY started_at`,
    );
    const applied = new Map(rows.map((row) => [row.migration_name, row]));

    for (const row of rows) {
      if (!row.finished_at) {
        throw new MigrationError(`Migration ${row.migration_name} started but did not finish; resolve it before migrating again`);
      }
    }
    for (const migration of migrations) {
      const row = applied.get(migration.name);
      if (row && row.checksum !== migration.checksum) {
        throw new MigrationError(
          `Migration ${migration.name} was changed after it was applied (checksum ${row.checksum} in the database, ${migration.checksum} on disk); add a new migration instead`,
        );
      }
    }

    const pending = migrations.filter((m) => !applied.has(m.name));
    for (const migration of pending) {
      const id = randomUUID();
      await tx.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), 0)`,
        [id, migration.checksum, migration.name],
      );
      try {
        await tx.exec(migration.script);
      } catch (error) {
        throw new MigrationError(`Migration ${migration.name} failed: ${(error as Error).message}`);
      }
      await tx.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
    }
    return { applied: pending.map((m) => m.name), alreadyApplied: migrations.length - pending.length };
  });
}
