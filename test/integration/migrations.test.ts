import { createHash } from "node:crypto";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, test } from "vitest";
import { connectPostgres, openPglite, type Database } from "../../server/db/client.ts";
import { DEFAULT_MIGRATIONS_DIR, migrate, MigrationError, readMigrations } from "../../server/db/migrate.ts";
import { createDatabase } from "../support/databases.ts";

const opened: Database[] = [];
let counter = 0;

/** A brand-new, empty database (no migrations applied). */
async function emptyDatabase(): Promise<Database> {
  const url = await createDatabase(`${inject("runPrefix")}_mig_${process.pid}_${counter++}`);
  const db = connectPostgres(url, 4);
  opened.push(db);
  return db;
}

function copyOfMigrations(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "cp-migrations-"));
  cpSync(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}

afterAll(async () => {
  for (const db of opened) await db.close();
});

const records = (db: Database) =>
  db.sql.query<{
    migration_name: string;
    checksum: string;
    finished_at: Date | null;
    applied_steps_count: number;
    logs: string | null;
    rolled_back_at: Date | null;
    id: string;
  }>(`SELECT * FROM "_prisma_migrations" ORDER BY migration_name`);

describe("migrate runner", () => {
  test("a fresh database gets every migration, recorded as prisma migrate deploy records them", async () => {
    const db = await emptyDatabase();
    const result = await migrate(db.sql);
    const files = readMigrations();
    expect(result.applied).toEqual(files.map((f) => f.name));
    const rows = await records(db);
    expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
    for (const [i, row] of rows.entries()) {
      const file = readFileSync(path.join(DEFAULT_MIGRATIONS_DIR, files[i]!.name, "migration.sql"));
      expect(row.checksum).toBe(createHash("sha256").update(file).digest("hex"));
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.applied_steps_count).toBe(1);
      expect(row.logs).toBeNull();
      expect(row.rolled_back_at).toBeNull();
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(await db.sql.query(`SELECT 1 FROM tenants LIMIT 1`)).toEqual([]);
  });

  test("running it again is a no-op", async () => {
    const db = await emptyDatabase();
    await migrate(db.sql);
    const before = await records(db);
    const again = await migrate(db.sql);
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied).toBe(before.length);
    expect(await records(db)).toEqual(before);
  });

  test("a new migration is applied after the existing ones", async () => {
    const db = await emptyDatabase();
    const dir = copyOfMigrations();
    await migrate(db.sql, dir);
    mkdirSync(path.join(dir, "29990101000000_add_note"));
    writeFileSync(path.join(dir, "29990101000000_add_note", "migration.sql"), `ALTER TABLE "tenants" ADD COLUMN "note" TEXT;\n`);
    expect((await migrate(db.sql, dir)).applied).toEqual(["29990101000000_add_note"]);
    expect(await db.sql.query(`SELECT note FROM tenants`)).toEqual([]);
  });

  test("an applied migration whose file changed is refused, and nothing runs", async () => {
    const db = await emptyDatabase();
    const dir = copyOfMigrations();
    await migrate(db.sql, dir);
    const first = readMigrations(dir)[0]!;
    appendFileSync(path.join(dir, first.name, "migration.sql"), "\n-- edited after the fact\n");
    mkdirSync(path.join(dir, "29990101000000_more"));
    writeFileSync(path.join(dir, "29990101000000_more", "migration.sql"), `CREATE TABLE "more" (id int);\n`);
    await expect(migrate(db.sql, dir)).rejects.toThrow(MigrationError);
    await expect(migrate(db.sql, dir)).rejects.toThrow(new RegExp(`${first.name} was changed after it was applied`));
    expect(await db.sql.query(`SELECT to_regclass('public.more') AS t`)).toEqual([{ t: null }]);
  });

  test("a failing migration rolls back entirely: no schema change, no record", async () => {
    const db = await emptyDatabase();
    const dir = copyOfMigrations();
    mkdirSync(path.join(dir, "29990101000000_broken"));
    writeFileSync(
      path.join(dir, "29990101000000_broken", "migration.sql"),
      `CREATE TABLE "half" (id int);\nSELECT * FROM no_such_table;\n`,
    );
    await expect(migrate(db.sql, dir)).rejects.toThrow(/29990101000000_broken failed/);
    expect(await db.sql.query(`SELECT to_regclass('public.half') AS half, to_regclass('public.tenants') AS tenants`)).toEqual([
      { half: null, tenants: null },
    ]);
  });

  test("a migration recorded as started but never finished stops the run", async () => {
    const db = await emptyDatabase();
    await migrate(db.sql);
    await db.sql.query(`UPDATE "_prisma_migrations" SET finished_at = NULL`);
    await expect(migrate(db.sql)).rejects.toThrow(/did not finish/);
  });

  test("instances starting at once apply each migration exactly once", async () => {
    const db = await emptyDatabase();
    const results = await Promise.all(Array.from({ length: 4 }, () => migrate(db.sql)));
    expect(results.flatMap((r) => r.applied)).toEqual(readMigrations().map((m) => m.name));
    expect((await records(db)).length).toBe(readMigrations().length);
  });

  test("the embedded PGlite database takes the same migrations", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cp-pglite-"));
    const lite = await openPglite(dir);
    try {
      expect((await migrate(lite.sql)).applied).toEqual(readMigrations().map((m) => m.name));
      expect((await migrate(lite.sql)).applied).toEqual([]);
      const tenant = await lite.prisma.tenant.create({ data: { name: "Embedded" } });
      expect(tenant.id).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await lite.close();
    }
  }, 60_000);
});
