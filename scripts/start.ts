/**
 * The production entry, compiled to dist/server/start.js (scripts/build-server.mjs), which `npm start`
 * and a container run with plain `node`: checks the environment, builds the
 * Next app if its build is missing or older than the sources (scripts/build-stale.ts), then serves
 * it on PORT (scripts/serve.ts: migrations and bootstrap accounts first, then the REST API and Next)
 * in this same process, so signals reach the server.
 */
import { spawnSync } from "node:child_process";
import { env, EnvError } from "../server/env.ts";
import { buildIsStale } from "./build-stale.ts";

try {
  env();
} catch (error) {
  console.error(error instanceof EnvError ? error.message : String(error));
  process.exit(1);
}

// The directory next.config.mjs builds into.
if (buildIsStale(process.cwd(), process.env.NEXT_DIST_DIR || ".next")) {
  console.log("Building the app (first start, or sources changed)…");
  const build = spawnSync("node_modules/.bin/next", ["build"], {
    stdio: "inherit",
    // What it builds was type-checked before it landed (next.config.mjs).
    env: { ...process.env, SKIP_BUILD_TYPECHECK: "1", NEXT_TELEMETRY_DISABLED: process.env.NEXT_TELEMETRY_DISABLED ?? "1" },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// Next selects its production runtime from NODE_ENV, as `next start` would set it.
(process.env as Record<string, string>).NODE_ENV = "production";
await import("./serve.ts");
