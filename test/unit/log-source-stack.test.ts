/**
 * A logged stack from the compiled server names our TypeScript, not the bundle (server/log.ts,
 * `sourceStack`): the server runs without `--enable-source-maps`, and Next replaces
 * `Error.prepareStackTrace` with one that never maps. The entry below is compiled as
 * scripts/build-server.mjs compiles the server (esbuild, ESM, external packages, maps beside the
 * output) and run in plain node with Next's node environment loaded, as in production.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sourceStack } from "../../server/log.ts";
import { serverOnly } from "../../scripts/build-server.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
let dir: string;

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
        `try { fail("boom"); } catch (error) { console.log(JSON.stringify(errorFields(error))); }`,
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
    const { error, stack } = JSON.parse(run.stdout) as { error: string; stack: string };
    expect(error).toBe("boom");
    expect(stack).toMatch(new RegExp(`at fail \\(${entry.replace(/[.\\/]/g, "\\$&")}:4:9\\)`));
    expect(stack).not.toContain("entry.js");
  });

  test("leaves frames of packages, of Next's build and without a map as they are", () => {
    const stack = [
      "Error: x",
      "    at next (/srv/app/node_modules/pg/lib/client.js:10:5)",
      "    at page (/srv/app/.next/server/chunks/ssr/a.js:1:200)",
      `    at file://${dir}/nomap.js:3:1`,
      "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)",
    ].join("\n");
    expect(sourceStack(stack)).toBe(stack);
    expect(sourceStack(undefined)).toBeUndefined();
  });
});
