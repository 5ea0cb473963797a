/**
 * Builds the package's dist/ from src/ (what `npm pack` and `npm install <this folder>` run, as the
 * `prepare` script), with the repository's own esbuild and TypeScript (root devDependencies):
 *
 * - dist/index.js: one ESM file for Node 20 (esbuild, not minified), openapi-fetch bundled in, so
 *   the package has no runtime dependencies;
 * - dist/*.d.ts: the declarations (tsc, tsconfig.build.json), beside the generated schema.d.ts and
 *   the audit checks' audit-chain.d.mts, which tsc does not copy; openapi-fetch's declarations
 *   (and those of openapi-typescript-helpers, which they import) are copied into dist/vendor/ with
 *   their licences, and the imports of them rewritten to point there.
 *
 *   node sdk/build.mjs        (or, in sdk/: npm run build)
 */
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));
const dist = path.join(root, "dist");
const require = createRequire(import.meta.url);

rmSync(dist, { recursive: true, force: true });
await build({
  entryPoints: [path.join(root, "src/index.ts")],
  outfile: path.join(dist, "index.js"),
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  legalComments: "eof",
  logLevel: "warning",
});

execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", path.join(root, "tsconfig.build.json")], { stdio: "inherit" });
copyFileSync(path.join(root, "src/schema.d.ts"), path.join(dist, "schema.d.ts"));
copyFileSync(path.join(root, "src/audit-chain.d.mts"), path.join(dist, "audit-chain.d.mts"));

/** A package's declaration file and licence, into dist/vendor/<name>.d.ts, its imports of `rewrite`'s keys replaced. */
function vendor(name, declarations, rewrite) {
  const dir = path.dirname(require.resolve(`${name}/package.json`));
  let text = readFileSync(path.join(dir, declarations), "utf8");
  for (const [from, to] of Object.entries(rewrite)) text = text.replaceAll(`'${from}'`, `"${to}"`).replaceAll(`"${from}"`, `"${to}"`);
  mkdirSync(path.join(dist, "vendor"), { recursive: true });
  writeFileSync(path.join(dist, "vendor", `${name}.d.ts`), text);
  copyFileSync(path.join(dir, "LICENSE"), path.join(dist, "vendor", `${name}.LICENSE`));
}
vendor("openapi-fetch", "dist/index.d.mts", { "openapi-typescript-helpers": "./openapi-typescript-helpers.js" });
vendor("openapi-typescript-helpers", "dist/index.d.mts", {});

// The emitted declarations' imports of openapi-fetch, pointed at the vendored copy.
for (const file of readdirSync(dist, { recursive: true, encoding: "utf8" })) {
  if (!file.endsWith(".d.ts") || file.startsWith("vendor")) continue;
  const full = path.join(dist, file);
  const depth = file.split(path.sep).length - 1;
  const target = `${depth ? "../".repeat(depth) : "./"}vendor/openapi-fetch.js`;
  const text = readFileSync(full, "utf8");
  const rewritten = text.replaceAll(`"openapi-fetch"`, `"${target}"`);
  if (rewritten !== text) writeFileSync(full, rewritten);
}
