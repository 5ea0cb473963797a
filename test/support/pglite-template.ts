/**
 * A migrated PGlite data directory, made once and copied per test: migrating PGlite from scratch
 * takes seconds of CPU, and several files need a migrated one. The template is keyed by the
 * migrations' content and PGlite's version, kept under the system's temporary folder between runs,
 * and made by one process at a time (a lock directory); every caller gets its own copy.
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openPglite } from "../../server/db/client.ts";
import { migrate } from "../../server/db/migrate.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const MIGRATIONS = path.join(ROOT, "prisma/migrations");

function templateKey(): string {
  const hash = createHash("sha256");
  hash.update(readFileSync(path.join(ROOT, "node_modules/@electric-sql/pglite/package.json")));
  for (const name of readdirSync(MIGRATIONS).sort()) {
    const file = path.join(MIGRATIONS, name, "migration.sql");
    if (existsSync(file)) hash.update(name).update(readFileSync(file));
  }
  return hash.digest("hex").slice(0, 16);
}

async function lock(dir: string): Promise<() => void> {
  for (const started = Date.now(); ;) {
    try {
      mkdirSync(dir);
      return () => rmSync(dir, { recursive: true, force: true });
    } catch {
      // A holder that died long ago (a killed run) gives its lock up after two minutes.
      if (Date.now() - started > 120_000) rmSync(dir, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** A fresh copy of the migrated template in a new temporary directory (the caller removes it). */
export async function migratedPgliteDir(prefix = "cp-pglite-"): Promise<string> {
  const template = path.join(tmpdir(), `cp-pglite-template-${templateKey()}`);
  if (!existsSync(path.join(template, "READY"))) {
    const release = await lock(`${template}.lock`);
    try {
      if (!existsSync(path.join(template, "READY"))) {
        const building = mkdtempSync(`${template}.building-`);
        const db = await openPglite(path.join(building, "data"));
        await migrate(db.sql);
        await db.close();
        writeFileSync(path.join(building, "READY"), "");
        rmSync(template, { recursive: true, force: true });
        renameSync(building, template);
      }
    } finally {
      release();
    }
  }
  const copy = mkdtempSync(path.join(tmpdir(), prefix));
  cpSync(path.join(template, "data"), copy, { recursive: true });
  return copy;
}
