/**
 * What bench/run.ts and bench/profile.ts share: the build into .next-bench, the cp_bench
 * database (create, seed, reset, drop), and starting the app and the baseline on it.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { BUILD_INPUTS, buildIsStale } from "../scripts/build-stale.ts";
import { startServer, stopServer, waitReady, type Server } from "./procs.ts";
import { replaceSection } from "./report.ts";
import { settingsFor, settingsLine } from "./settings.ts";

export const ROOT = path.resolve(import.meta.dirname, "..");
/** The production build the benches run: .next-bench, or BENCH_DIST_DIR (`npm test`'s smoke runs use its own .next). */
export const DIST_DIR = process.env.BENCH_DIST_DIR ?? ".next-bench";
/** BENCH_DB: another name, so two benches on one Postgres do not drop each other's database. */
export const DB_NAME = process.env.BENCH_DB ?? "cp_bench";
export const SEED_TENANTS = 10_000;
/** The app's pg Pool size (server/db/client.ts); the baseline gets the same. */
export const POOL_SIZE = 10;

export const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const BENCH_URL = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
})();

export const log = (message: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

/** Where the benchmarks write their latest runs, one file per area; BENCHMARKS.md sums them up. */
export const RUNS_DIR = "docs/benchmarks";

/**
 * Replaces the `heading` section of docs/benchmarks/<file> with this run's. BENCHMARKS.md, the
 * report, is written by hand: its figures are brought up to date from the section after a run.
 */
export function writeRunSection(file: string, section: string, heading: string): void {
  replaceSection(path.join(ROOT, RUNS_DIR, file), `${section.trimEnd()}\n\n${settingsLine()}\n`, heading);
  log(`updated ${RUNS_DIR}/${file} (section "${heading.replace(/^#+ /, "")}"); update its figures in BENCHMARKS.md by hand`);
}

// ---------------------------------------------------------------------------------------------
// Build

/**
 * Builds into .next-bench when missing or older than the sources (scripts/build-stale.ts).
 * Compile + generate mode is the same production build without the type-check step, which would
 * rewrite tsconfig.json (adding .next-bench to "include") and fail on whatever files others are
 * editing at that moment; the type check is the CI's job, not the benchmark's.
 */
export function ensureBuild(skipBuild: boolean): string {
  if (!buildIsStale(ROOT, DIST_DIR)) return "existing build (up to date)";
  if (skipBuild) {
    if (!existsSync(path.join(ROOT, DIST_DIR, "BUILD_ID"))) throw new Error(`--skip-build, but there is no build in ${DIST_DIR}`);
    return "existing build (older than the sources: --skip-build)";
  }
  const started = Date.now();
  log(`building the app into ${DIST_DIR} …`);
  for (const mode of ["compile", "generate"]) {
    const result = spawnSync(path.join(ROOT, "node_modules/.bin/next"), ["build", `--experimental-build-mode=${mode}`], {
      cwd: ROOT,
      env: { ...process.env, NEXT_DIST_DIR: DIST_DIR, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
      encoding: "utf8",
    });
    if (result.status !== 0) throw new Error(`next build (${mode}) failed:\n${result.stdout}\n${result.stderr}`);
  }
  log(`built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return "fresh build";
}

export function gitInfo(): { commit: string; dirtyAppFiles: string[] } {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
  try {
    const dirty = git("status", "--porcelain", "--", ...BUILD_INPUTS.filter((s) => existsSync(path.join(ROOT, s))))
      .split("\n")
      .filter(Boolean)
      .map((line) => line.slice(3));
    return { commit: git("rev-parse", "--short", "HEAD"), dirtyAppFiles: dirty };
  } catch {
    return { commit: "unknown", dirtyAppFiles: [] };
  }
}

// ---------------------------------------------------------------------------------------------
// Database

export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Drops and creates cp_bench; returns the server's version(). */
export async function recreateDatabase(): Promise<string> {
  return withClient(ADMIN_URL, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${DB_NAME}`);
    return (await client.query<{ version: string }>("SELECT version()")).rows[0]!.version;
  });
}

export async function dropDatabase(): Promise<void> {
  await withClient(ADMIN_URL, (client) => client.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`));
}

/** 10,000 tenants, one every ~5 minutes back from now with jitter, so pages look like real data. */
export async function seed(db: pg.Client): Promise<void> {
  await db.query(
    `INSERT INTO tenants (name, created_at)
     SELECT 'Tenant ' || g, now() - make_interval(secs => g * 300 + random() * 240)
     FROM generate_series(1, $1) AS g`,
    [SEED_TENANTS],
  );
  await db.query("VACUUM ANALYZE tenants");
}

/** Waits until no other session on cp_bench is running a statement or holding a transaction. */
export async function quiesce(db: pg.Client, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let quietChecks = 0;
  while (Date.now() < deadline) {
    const { rows } = await db.query<{ busy: number }>(
      "SELECT count(*)::int AS busy FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND state <> 'idle'",
      [DB_NAME],
    );
    quietChecks = rows[0]!.busy === 0 ? quietChecks + 1 : 0;
    if (quietChecks >= 3) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${DB_NAME} still busy ${timeoutMs / 1000} s after the load stopped`);
}

/**
 * Removes what POST requests created (names "bench-…"), so every run sees the seeded table.
 * Waits for requests still in flight when the load stopped to finish first.
 */
export async function resetWrites(db: pg.Client): Promise<{ tenants: number; events: number }> {
  await quiesce(db);
  // audit_events and audit_digests are append-only (their triggers refuse DELETE); the bench database's superuser
  // switches user triggers off for this session to remove the bench tenants' chains.
  await db.query("SET session_replication_role = replica");
  const events = await db.query("DELETE FROM audit_events WHERE tenant_id IN (SELECT id FROM tenants WHERE name LIKE 'bench-%')");
  await db.query("DELETE FROM audit_chains WHERE chain_id IN (SELECT id FROM tenants WHERE name LIKE 'bench-%')");
  // Housekeeping may have signed digests for them (append-only too, and they hold their tenant).
  await db.query("DELETE FROM audit_digests WHERE tenant_id IN (SELECT id FROM tenants WHERE name LIKE 'bench-%')");
  await db.query("SET session_replication_role = DEFAULT");
  const tenants = await db.query("DELETE FROM tenants WHERE name LIKE 'bench-%'");
  await db.query("DELETE FROM idempotency_keys");
  await db.query("VACUUM ANALYZE tenants, audit_events, idempotency_keys");
  return { tenants: tenants.rowCount ?? 0, events: events.rowCount ?? 0 };
}

/** Backends connected to cp_bench other than `db`'s own. */
export async function backendPids(db: pg.Client): Promise<number[]> {
  const { rows } = await db.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [
    DB_NAME,
  ]);
  return rows.map((r) => r.pid);
}

// ---------------------------------------------------------------------------------------------
// Servers

export const newToken = () => `cp_${randomBytes(32).toString("base64url")}`;

/**
 * The app's production server on `databaseUrl`: it migrates the database and creates the
 * operator with `token` itself: scripts/serve.ts (what `npm start` runs), as
 * `node [nodeArgs] --import tsx --import ./scripts/server-only.mjs scripts/serve.ts`, so the PID held is the server's.
 */
export async function startApp(options: {
  port: number;
  token: string;
  databaseUrl?: string;
  nodeArgs?: string[];
  /** Environment variables set over bench/settings.ts's APP_SETTINGS (e.g. INTERNAL_CRON=on), said in the report. */
  env?: Record<string, string>;
  /** Called with the process as soon as it is spawned (so a Ctrl-C while waiting can stop it). */
  track?: (server: Server) => void;
  /** bench/api-server.ts (the REST edge without Next, no build needed) instead of scripts/serve.ts. */
  apiOnly?: boolean;
  /** What the report calls this app when it changed a setting. */
  name?: string;
}): Promise<Server> {
  const url = `http://127.0.0.1:${options.port}`;
  const script = options.apiOnly ? "bench/api-server.ts" : "scripts/serve.ts";
  const [command, args] = [
    process.execPath,
    [...(options.nodeArgs ?? []), "--import", "tsx", "--import", path.join(ROOT, "scripts/server-only.mjs"), path.join(ROOT, script)],
  ];
  const app = startServer("app", url, command, args, {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(options.port),
    NEXT_DIST_DIR: DIST_DIR,
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: options.databaseUrl ?? BENCH_URL,
    NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
    APP_URL: url,
    BOOTSTRAP_ADMIN_EMAIL: "bench-operator@example.com",
    BOOTSTRAP_ADMIN_PASSWORD: randomBytes(12).toString("base64url"),
    BOOTSTRAP_TOKEN: options.token,
    ...settingsFor(options.name ?? (options.apiOnly ? "api-server" : "app"), options.env),
  });
  options.track?.(app);
  await waitReady(app, options.apiOnly ? `${url}/healthz` : `${url}/api/v1/openapi.json`).catch(async (error: unknown) => {
    await stopServer(app);
    throw error;
  });
  return app;
}

/** bench/baseline.ts in its own process (node --import tsx, so the PID held is the server's). */
export async function startBaseline(options: { port: number; databaseUrl?: string; track?: (server: Server) => void }): Promise<Server> {
  const url = `http://127.0.0.1:${options.port}`;
  const baseline = startServer("baseline", url, process.execPath, ["--import", "tsx", path.join(ROOT, "bench/baseline.ts")], {
    ...process.env,
    NODE_ENV: "production",
    BASELINE_DATABASE_URL: options.databaseUrl ?? BENCH_URL,
    BASELINE_PORT: String(options.port),
    BASELINE_POOL_SIZE: String(POOL_SIZE),
  });
  options.track?.(baseline);
  await waitReady(baseline, `${url}/healthz`).catch(async (error: unknown) => {
    await stopServer(baseline);
    throw error;
  });
  return baseline;
}

export async function getJson(url: string, token: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** A cursor from the middle of the seeded table: the next_cursor of page 250 of 500. */
export async function middleCursor(appUrl: string, token: string): Promise<string> {
  const page = await getJson(`${appUrl}/api/v1/tenants?page=${SEED_TENANTS / 40}`, token);
  if (typeof page.next_cursor !== "string") throw new Error("the middle page has no next_cursor");
  return page.next_cursor;
}
