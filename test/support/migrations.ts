/** A copy of the project's migrations up to a point, to build a database as an older release left it. */
import { cpSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEFAULT_MIGRATIONS_DIR } from "../../server/db/migrate.ts";

/** A directory holding the migrations whose names `keep` accepts. */
export function migrationsWhere(keep: (name: string) => boolean): string {
  const dir = mkdtempSync(path.join(tmpdir(), "cp-old-migrations-"));
  for (const name of readdirSync(DEFAULT_MIGRATIONS_DIR)) {
    if (keep(name) || name === "migration_lock.toml")
      cpSync(path.join(DEFAULT_MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
  }
  return dir;
}

/** The migrations up to and including `last`. */
export const migrationsUpTo = (last: string) => migrationsWhere((name) => name <= last);

/** The migrations before `first`. */
export const migrationsBefore = (first: string) => migrationsWhere((name) => name < first);
