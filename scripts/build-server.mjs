/**
 * The compiled production server: esbuild bundles our TypeScript (scripts/start.ts, scripts/serve.ts
 * and everything of ours they import) into dist/server/ as ES modules with source maps, leaving
 * every package of node_modules external (Next, React, the Prisma runtime, pg load as Node loads
 * them). `npm run build` runs it after `next build`; `npm start` runs it with `--if-stale` (build
 * only when dist/server is missing or older than what it was built from), then
 * `node dist/server/start.js`: no tsx and no transpiling at run time.
 *
 *   node scripts/build-server.mjs [--if-stale] [--outdir DIR]
 *
 * `import "server-only"` (a guard whose default export throws outside Next's react-server
 * condition) resolves to an empty module, as scripts/server-only.mjs does for tsx.
 */
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SERVER_OUTDIR = "dist/server";
/** What esbuild writes beside the bundles: the inputs it read (to tell when a build is stale). */
const META_FILE = "meta.json";
const ENTRY_POINTS = ["scripts/start.ts", "scripts/serve.ts"];
/** Outside the bundle's inputs, but they change what it is: this file, and the packages it leaves external. */
const CONFIG_INPUTS = ["scripts/build-server.mjs", "package.json", "package-lock.json"];

/** `import "server-only"` as an empty module (exported for test/unit/log-source-stack.test.ts). */
export const serverOnly = {
  name: "server-only",
  setup(builder) {
    builder.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "server-only" }));
    builder.onLoad({ filter: /.*/, namespace: "server-only" }, () => ({ contents: "export {};", loader: "js" }));
  },
};

/** Bundles the server into `outdir` (relative to the project root); returns the seconds it took. */
export async function buildServer(outdir = SERVER_OUTDIR) {
  const started = Date.now();
  const absolute = path.join(ROOT, outdir);
  rmSync(absolute, { recursive: true, force: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: ENTRY_POINTS,
    outdir: absolute,
    outbase: "scripts",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    sourcemap: "linked",
    sourcesContent: false,
    // Our own modules keep their names in stack traces and in `constructor.name` (heap snapshots).
    keepNames: true,
    metafile: true,
    logLevel: "warning",
    plugins: [serverOnly],
    chunkNames: "chunks/[name]-[hash]",
  }).then(({ metafile }) => {
    const inputs = Object.keys(metafile.inputs).filter((input) => !input.startsWith("server-only:"));
    return import("node:fs").then(({ writeFileSync }) =>
      writeFileSync(path.join(absolute, META_FILE), `${JSON.stringify({ inputs: [...inputs, ...CONFIG_INPUTS] }, null, 1)}\n`),
    );
  });
  return (Date.now() - started) / 1000;
}

/** True when `outdir` has no build, or a file it was built from (or this script) changed since. */
export function serverBuildIsStale(outdir = SERVER_OUTDIR) {
  const meta = path.join(ROOT, outdir, META_FILE);
  if (!existsSync(meta) || !existsSync(path.join(ROOT, outdir, "start.js"))) return true;
  const builtAt = statSync(meta).mtimeMs;
  const { inputs } = JSON.parse(readFileSync(meta, "utf8"));
  return inputs.some((input) => {
    const file = path.join(ROOT, input);
    // A deleted input changes the build as much as an edited one.
    return !existsSync(file) || statSync(file).mtimeMs > builtAt;
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { "if-stale": { type: "boolean" }, outdir: { type: "string" } } });
  const outdir = values.outdir ?? SERVER_OUTDIR;
  if (!values["if-stale"] || serverBuildIsStale(outdir)) {
    const seconds = await buildServer(outdir);
    console.log(`Compiled the server into ${outdir}/ in ${seconds.toFixed(1)} s.`);
  }
}
