// Generates the Prisma client offline. `prisma generate` only needs the schema engine path to
// point at an existing file (it never runs it); without it, it tries to download an engine.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

if (!existsSync("node_modules/.bin/prisma")) {
  // Production-only installs have no Prisma CLI; the client must have been generated before.
  process.exit(0);
}
const result = spawnSync("node_modules/.bin/prisma", ["generate"], {
  stdio: "inherit",
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? "/bin/false",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
  },
});
if (result.status !== 0) process.exit(result.status ?? 1);

// The generated client imports its query compiler as an ES module whose one export is the
// WebAssembly in base64 (4.6 MB): V8 keeps a module's source and its exports for the life of the
// process, so 9 MB of text stayed in every instance's heap after the module was compiled. Reading
// the same file as text lets both go once the module is compiled (BENCHMARKS.md, Memory).
const CLASS_FILE = "server/db/generated/internal/class.ts";
const IMPORT =
  /const \{ wasm \} = await import\("(@prisma\/client\/runtime\/query_compiler_[\w.]+\.wasm-base64)\.mjs"\)\n(\s*)return await decodeBase64AsWasm\(wasm\)/;
const source = readFileSync(CLASS_FILE, "utf8");
const match = IMPORT.exec(source);
if (!match) {
  console.error(`${CLASS_FILE}: the query compiler's import is not where scripts/generate-prisma.mjs expects it; update the patch.`);
  process.exit(1);
}
const [, file, indent] = match;
writeFileSync(
  CLASS_FILE,
  source.replace(
    IMPORT,
    [
      `// Read as text, not imported (scripts/generate-prisma.mjs): an imported module's 4.6 MB would stay in the heap.`,
      `const { readFile } = await import("node:fs/promises")`,
      `const { createRequire } = await import("node:module")`,
      `const text = await readFile(createRequire(import.meta.url).resolve("${file}.js"), "utf8")`,
      `return await decodeBase64AsWasm(text.slice(text.indexOf('"') + 1, text.lastIndexOf('"')))`,
    ].join(`\n${indent}`),
  ),
);
