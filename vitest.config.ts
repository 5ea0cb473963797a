import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Integration files that change the process for themselves (set or delete an environment
 * variable, which the app reads once; mock a module; stub globals), and those that say "Runs in a
 * process of its own" (they read a process-wide budget or counter), get fresh modules of their
 * own. The others share their worker's loaded modules from file to file, each still on its own
 * database, from the environment and clock the worker started with (test/support/env.ts puts
 * them back): loading the server once per worker instead of once per file halves their CPU time.
 */
const OWN_PROCESS =
  /process\.env\.[A-Z_]+\s*=(?!=)|process\.env\[[^\]]+\]\s*=(?!=)|delete process\.env|vi\.(?:mock|doMock|stubEnv|stubGlobal|resetModules)\(|Runs in a process of its own/;
/** The compiled server's test reads the production build: `npm test` runs it once the build is done. */
const AFTER_BUILD = "test/integration/compiled-server.test.ts";
const integrationFiles = readdirSync(root("test/integration"))
  .filter((name) => name.endsWith(".test.ts"))
  .map((name) => `test/integration/${name}`)
  .filter((file) => file !== AFTER_BUILD);
const ownProcess = integrationFiles.filter((file) => OWN_PROCESS.test(readFileSync(root(file), "utf8")));

/**
 * Unit files share their workers too. The environment they set is put back before the next file
 * (test/support/env.ts), and they load no server state, so only a mock or a stub, or saying so,
 * gives one a process of its own.
 */
const UNIT_OWN_PROCESS = /vi\.(?:mock|doMock|stubEnv|stubGlobal|resetModules)\(|Runs in a process of its own/;
const unitOwnProcess = readdirSync(root("test/unit"))
  .filter((name) => name.endsWith(".test.ts"))
  .map((name) => `test/unit/${name}`)
  .filter((file) => UNIT_OWN_PROCESS.test(readFileSync(root(file), "utf8")));

export default defineConfig({
  resolve: {
    alias: {
      "@": root("."),
      // The server modules `import "server-only"`, which throws outside Next's react-server
      // condition; tests load them in plain Node (scripts/server-only.mjs does the same for tsx).
      "server-only": root("node_modules/server-only/empty.js"),
    },
  },
  test: {
    pool: "forks",
    // Two files at a time (Vitest's default here would be one: cores − 1). Each integration file
    // has its own database, and everything a test file shares (advisory locks, LISTEN/NOTIFY,
    // the jobs' claims) is scoped to its database; servers listen on port 0.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        // Pure code: no database, no servers; the environment only.
        extends: true,
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          exclude: unitOwnProcess,
          isolate: false,
          setupFiles: ["test/support/env.ts"],
        },
      },
      // Unit files that mock or stub (none today), each in a fresh process.
      ...(unitOwnProcess.length
        ? [{ extends: true as const, test: { name: "unit-own-process", include: unitOwnProcess, setupFiles: ["test/support/env.ts"] } }]
        : []),
      {
        // Each file on its own copy of one migrated template database (global-setup.ts), in
        // workers that keep the server's modules loaded from one file to the next.
        extends: true,
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          exclude: [...ownProcess, AFTER_BUILD],
          isolate: false,
          globalSetup: ["test/support/global-setup.ts"],
          setupFiles: ["test/support/env.ts", "test/support/setup.ts"],
        },
      },
      {
        // The files that change the process for themselves (OWN_PROCESS): each in a fresh one.
        extends: true,
        test: {
          name: "integration-own-process",
          include: ownProcess,
          globalSetup: ["test/support/global-setup.ts"],
          setupFiles: ["test/support/env.ts", "test/support/setup.ts"],
        },
      },
      {
        // The compiled server's test in a process of its own (scripts/test.mjs runs it after the build).
        extends: true,
        test: {
          name: "after-build",
          include: [AFTER_BUILD],
          globalSetup: ["test/support/global-setup.ts"],
          setupFiles: ["test/support/env.ts", "test/support/setup.ts"],
        },
      },
    ],
  },
});
