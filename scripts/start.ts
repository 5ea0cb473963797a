/**
 * `npm start`: checks the environment, builds the app if the build is missing or older than the
 * sources, then serves the production build with `next start` on PORT. Migrations and bootstrap
 * accounts are applied by the server itself at start (instrumentation.ts).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { env, EnvError } from "../server/env.ts";

let port: number;
try {
  port = env().PORT;
} catch (error) {
  console.error(error instanceof EnvError ? error.message : String(error));
  process.exit(1);
}

const SOURCES = ["app", "server", "components", "prisma", "instrumentation.ts", "next.config.mjs", "package.json"];

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

const server = spawn("node_modules/.bin/next", ["start", "-p", String(port)], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
