import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = (path: string) => fileURLToPath(new URL(path, import.meta.url));

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
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], setupFiles: ["test/support/env.ts"] },
      },
      {
        // Each file on its own copy of one migrated template database (global-setup.ts).
        extends: true,
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          globalSetup: ["test/support/global-setup.ts"],
          setupFiles: ["test/support/env.ts", "test/support/setup.ts"],
        },
      },
    ],
  },
});
