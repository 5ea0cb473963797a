/**
 * `npm start`: checks the environment, builds the app if the build is missing or older than the
 * sources, then serves the production build on PORT (scripts/serve.ts: migrations and bootstrap
 * accounts first, then the REST API and Next).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { env, EnvError } from "../server/env.ts";

try {
  env();
} catch (error) {
  console.error(error instanceof EnvError ? error.message : String(error));
  process.exit(1);
}

const SOURCES = [
  "app",
  "server",
  "components",
  "prisma",
  "scripts",
  "instrumentation.ts",
  "instrumentation-client.ts",
  "proxy.ts",
  "next.config.mjs",
  "package.json",
];

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((max, name) => Math.max(max, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

const buildId = ".next/BUILD_ID";
const stale = !existsSync(buildId) || statSync(buildId).mtimeMs < Math.max(...SOURCES.map(newestMtime));
if (stale) {
  console.log("Building the app (first start, or sources changed)…");
  const build = spawnSync("node_modules/.bin/next", ["build"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// Next selects its production runtime from NODE_ENV, as `next start` would set it.
(process.env as Record<string, string>).NODE_ENV = "production";
await import("./serve.ts");
