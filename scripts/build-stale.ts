/**
 * Whether a Next production build is older than what it was built from: `npm start` (scripts/start.ts)
 * and the benchmarks (bench/harness.ts) run `next build` again only then.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/**
 * What `next build` reads, relative to the project root: the routes, everything they import, and
 * the build's configuration (next.config.mjs imports security-headers.mjs; PostCSS runs Tailwind;
 * tsconfig.json holds the `@/` alias; the lock file pins what is bundled). Migrations, scripts/
 * and bench/ run from source and are not part of the build.
 */
export const BUILD_INPUTS = [
  "app",
  "components",
  "server",
  "instrumentation.ts",
  "instrumentation-client.ts",
  "proxy.ts",
  "next.config.mjs",
  "security-headers.mjs",
  "postcss.config.mjs",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
];

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((max, name) => Math.max(max, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

/** True when `<root>/<distDir>/BUILD_ID` is missing or older than the newest file of the build's inputs. */
export function buildIsStale(root: string, distDir: string, inputs: readonly string[] = BUILD_INPUTS): boolean {
  const buildId = path.join(root, distDir, "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const inputsAt = Math.max(0, ...inputs.map((entry) => newestMtime(path.join(root, entry))));
  return statSync(buildId).mtimeMs < inputsAt;
}
