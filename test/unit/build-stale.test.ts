import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { BUILD_INPUTS, buildIsStale } from "../../scripts/build-stale.ts";

const BUILT = new Date("2026-11-20T12:00:00Z");
const BEFORE = new Date("2026-11-20T11:00:00Z");
const AFTER = new Date("2026-11-20T13:00:00Z");

let root: string;

/** Writes `file` under the temporary project and dates it and its folders `at`. */
function write(file: string, at: Date): void {
  const full = path.join(root, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, "");
  for (let entry = full; entry !== root; entry = path.dirname(entry)) utimesSync(entry, at, at);
}

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "build-stale-"));
  write("app/page.tsx", BEFORE);
  write("server/tenants/service.ts", BEFORE);
  write("next.config.mjs", BEFORE);
  write(".next/BUILD_ID", BUILT);
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("buildIsStale", () => {
  test("a build newer than every source is fresh", () => {
    expect(buildIsStale(root, ".next")).toBe(false);
  });

  test("a source file changed after the build makes it stale, however deep", () => {
    write("server/tenants/service.ts", AFTER);
    expect(buildIsStale(root, ".next")).toBe(true);
  });

  test("a configuration file changed after the build makes it stale", () => {
    write("package-lock.json", AFTER);
    expect(buildIsStale(root, ".next")).toBe(true);
  });

  test("a file deleted from a source folder after the build makes it stale (the folder's own time)", () => {
    write("components/old.tsx", BEFORE);
    rmSync(path.join(root, "components/old.tsx"));
    utimesSync(path.join(root, "components"), AFTER, AFTER);
    expect(buildIsStale(root, ".next")).toBe(true);
  });

  test("files the build does not read (bench, docs, migrations) leave it fresh", () => {
    write("bench/run.ts", AFTER);
    write("docs/benchmarks/audit.md", AFTER);
    write("prisma/migrations/20261120000000_x/migration.sql", AFTER);
    utimesSync(root, AFTER, AFTER);
    expect(buildIsStale(root, ".next")).toBe(false);
  });

  test("no build at all is stale", () => {
    expect(buildIsStale(root, ".next-bench")).toBe(true);
  });
});

test("every build input names a file or folder of this project", () => {
  const project = path.resolve(import.meta.dirname, "../..");
  expect(BUILD_INPUTS.filter((entry) => !existsSync(path.join(project, entry)))).toEqual([]);
});
