/**
 * Builds the SDK's JavaScript entry, sdk/dist/index.js (ESM, Node 20, not minified), from
 * sdk/src with esbuild; openapi-fetch stays an import (the package's one dependency). The types
 * are the sources themselves (sdk/package.json: `types` → src/index.ts).
 *
 *   node scripts/sdk-build.mjs
 */
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../sdk/", import.meta.url));
await build({
  entryPoints: [`${root}src/index.ts`],
  outfile: `${root}dist/index.js`,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: ["openapi-fetch"],
  logLevel: "info",
});
