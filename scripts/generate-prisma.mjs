// Generates the Prisma client offline. `prisma generate` only needs the schema engine path to
// point at an existing file (it never runs it); without it, it tries to download an engine.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

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
process.exit(result.status ?? 1);
