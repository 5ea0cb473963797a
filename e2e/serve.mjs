// The e2e server: a fresh Postgres database, then the compiled server (scripts/serve.ts built by
// scripts/build-server.mjs into dist/e2e-server, under a second, when stale) on the existing
// production build (NEXT_DIST_DIR if set, else .next) with a fixed test environment (e2e/server-env.mjs).
// Playwright starts it (webServer in playwright.config.ts); it can also be run alone to poke at the e2e setup.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { DIST_DIR as distDir, SERVER_DIR as outdir, SERVER_ENTRY, serverEnv } from "./server-env.mjs";

const constants = JSON.parse(readFileSync(new URL("./constants.json", import.meta.url), "utf8"));
const port = Number(process.env.E2E_PORT ?? constants.port);
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? constants.smtpPort);
const databaseUrl = process.env.E2E_DATABASE_URL ?? constants.databaseUrl;

function fail(message) {
  console.error(`e2e/serve.mjs: ${message}`);
  process.exit(1);
}

if (!existsSync(path.join(distDir, "BUILD_ID"))) {
  fail(`no production build in ${distDir}/; run \`${distDir === ".next" ? "" : `NEXT_DIST_DIR=${distDir} `}npx next build\` first`);
}

/** Drops and creates the database named in `url`, connected to the server's `postgres` database. */
async function recreateDatabase(url) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name)) fail(`refusing to recreate database "${name}": use letters, digits and _`);
  const maintenance = new URL(url);
  maintenance.pathname = "/postgres";
  const client = new pg.Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } catch (error) {
    fail(`cannot recreate ${name} on ${maintenance.host} (${error.message}); is Postgres running?`);
  } finally {
    await client.end().catch(() => {});
  }
}

await recreateDatabase(databaseUrl);

const build = spawnSync(process.execPath, ["scripts/build-server.mjs", "--if-stale", "--outdir", outdir], { stdio: "inherit" });
if (build.status !== 0) fail("compiling the server failed");

// The same production server `npm start` runs (REST edge + Next, compiled), not bare `next start`.
const server = spawn(process.execPath, [SERVER_ENTRY], {
  stdio: "inherit",
  env: {
    ...serverEnv(port),
    DATABASE_URL: databaseUrl,
    // The mail journeys listen here with a real SMTP server (test/support/smtp.ts).
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  },
});

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
