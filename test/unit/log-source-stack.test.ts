/**
 * A logged stack from the compiled server names our TypeScript, not the bundle (server/log.ts,
 * `sourceStack`): the server runs without `--enable-source-maps`, and Next replaces
 * `Error.prepareStackTrace` with one that never maps. The entry below is compiled as
 * scripts/build-server.mjs compiles the server (esbuild, ESM, external packages, maps beside the
 * output) and run in plain node with Next's node environment loaded, as in production.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sourceStack } from "../../server/log.ts";
import { serverOnly } from "../../scripts/build-server.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
let dir: string;
let failAt: { line: number; column: number };

beforeAll(() => {
  // Inside the checkout, so the compiled entry finds the packages as dist/server does.
  mkdirSync(path.join(ROOT, ".test-results"), { recursive: true });
  dir = mkdtempSync(path.join(ROOT, ".test-results", "stack-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("sourceStack", () => {
  test("maps a compiled frame of our own to its TypeScript line, with Next's prepareStackTrace in place", async () => {
    const entry = path.join(dir, "entry.ts");
    writeFileSync(
      entry,
      [
        `import "next/dist/server/node-environment.js";`,
        `import { errorFields } from ${JSON.stringify(path.join(ROOT, "server/log.ts"))};`,
        `function fail(reason: string): never {`,
        `  throw new Error(reason);`,
        `}`,
        `try { fail("boom"); } catch (error) { console.log(JSON.stringify({ ...errorFields(error), raw: (error as Error).stack })); }`,
      ].join("\n"),
    );
    const outfile = path.join(dir, "out", "entry.js");
    await build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      format: "esm",
      platform: "node",
      packages: "external",
      sourcemap: "linked",
      sourcesContent: false,
      keepNames: true,
      plugins: [serverOnly],
      logLevel: "silent",
    });
    const run = spawnSync(process.execPath, [outfile], { cwd: ROOT, encoding: "utf8" });
    expect(run.stderr).toBe("");
    const { error, stack, raw } = JSON.parse(run.stdout) as { error: string; stack: string; raw: string };
    expect(error).toBe("boom");
    expect(stack).toMatch(new RegExp(`at fail \\(${entry.replace(/[.\\/]/g, "\\$&")}:4:9\\)`));
    expect(stack).not.toContain("entry.js");
    // Where `fail` threw in the compiled file, for the next test.
    const [, line, column] = /at fail \(.*entry\.js:(\d+):(\d+)\)/.exec(raw) ?? [];
    failAt = { line: Number(line), column: Number(column) };
  });

  test("leaves frames of packages and of Next's build as they are, though a map lies beside them", () => {
    // The first test's output, copied where a package and Next's build keep their files.
    const frameIn = (file: string) => {
      mkdirSync(path.dirname(file), { recursive: true });
      copyFileSync(path.join(dir, "out", "entry.js"), file);
      copyFileSync(path.join(dir, "out", "entry.js.map"), `${file}.map`);
      return `    at fail (${file}:${failAt.line}:${failAt.column})`;
    };
    const own = frameIn(path.join(dir, ".next-bench-server", "chunks", "entry.js"));
    const stack = [
      "Error: x",
      frameIn(path.join(dir, "node_modules", "pkg", "entry.js")),
      frameIn(path.join(dir, ".next", "server", "chunks", "ssr", "entry.js")),
      `    at file://${dir}/nomap.js:3:1`,
      "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)",
    ].join("\n");
    expect(sourceStack(stack)).toBe(stack);
    // A compiled server built beside Next's (bench:memory's .next-bench-server) is our own.
    expect(sourceStack(own)).toMatch(/entry\.ts:4:9\)$/);
    expect(sourceStack(undefined)).toBeUndefined();
  });
});
