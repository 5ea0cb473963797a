/**
 * One audit list request, under load, with the CPU it costs: `GET /api/v1/tenants/{id}/audit` with
 * the query given (--query, e.g. "?event_type=user.*") at 10 connections for --duration seconds
 * (6), against the REST edge without Next (bench/api-server.ts), on a database already seeded by
 * `npm run bench:audit -- --seed-only` (--db, default cp_bench_audit; its tenant "Audit bench
 * big"). Prints req/s, p50/p99, and the app's and Postgres's CPU per request (from /proc, robust
 * to other load). --workers n runs n app processes; --cpu-prof prints where the app's time went.
 *
 *   npx tsx --import ./scripts/server-only.mjs bench/audit-list-probe.ts --query "?start_date=2026-03-01T10:30:00Z"
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { ADMIN_URL, log, newToken, startApp, withClient } from "./harness.ts";
import { LIMITS_OFF } from "./settings.ts";
import { freePort, stopServer, type Server } from "./procs.ts";
import { printProfiles } from "./cpuprofile.ts";
import { cpuBetween, processTree, sampleCpu } from "./system.ts";

const { values: flags } = parseArgs({
  options: {
    db: { type: "string", default: "cp_bench_audit" },
    query: { type: "string", default: "" },
    duration: { type: "string", default: "6" },
    workers: { type: "string", default: "1" },
    "cpu-prof": { type: "boolean", default: false },
  },
});
const DB_URL = Object.assign(new URL(ADMIN_URL), { pathname: `/${flags.db}` }).toString();
const profileDir = mkdtempSync(path.join(tmpdir(), "cp-list-prof-"));
const servers: Server[] = [];
const token = newToken();
const tenantId = await withClient(
  DB_URL,
  async (c) => (await c.query(`SELECT id FROM tenants WHERE name = 'Audit bench big'`)).rows[0]?.id as string,
);
if (!tenantId) throw new Error(`${flags.db} has no tenant "Audit bench big": seed it with npm run bench:audit -- --seed-only`);
const app = await startApp({
  port: await freePort(),
  token,
  databaseUrl: DB_URL,
  apiOnly: true,
  track: (s) => servers.push(s),
  nodeArgs: flags["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [],
  env: { ...LIMITS_OFF, WEB_CONCURRENCY: flags.workers },
});
const run = (duration: number) =>
  autocannon({
    url: app.url,
    connections: 10,
    duration,
    requests: [{ method: "GET", path: `/api/v1/tenants/${tenantId}/audit${flags.query}`, headers: { authorization: `Bearer ${token}` } }],
  });
let [loadStarted, loadEnded, stopped] = [0, 0, 0];
try {
  await run(2);
  loadStarted = Date.now();
  const pids = processTree(app.child.pid!);
  const dbPids = await withClient(DB_URL, async (c) =>
    (
      await c.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [flags.db])
    ).rows.map((r) => r.pid),
  );
  const before = pids.map((pid) => sampleCpu(pid, dbPids));
  const result = await run(Number(flags.duration));
  const after = pids.map((pid) => sampleCpu(pid, dbPids));
  loadEnded = Date.now();
  const usage = before.map((b, i) => cpuBetween(b, after[i]!, result.requests.total));
  log(
    `${flags.query || "unfiltered"}, ${flags.workers} worker(s): ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
      `non-2xx ${result.non2xx}; CPU per request: app ${usage.reduce((sum, u) => sum + u.serverMsPerRequest, 0).toFixed(3)} ms, ` +
      `Postgres ${usage[0]!.databaseMsPerRequest.toFixed(3)} ms, other ${usage[0]!.otherCores.toFixed(2)} cores`,
  );
} finally {
  await Promise.all(servers.map((s) => stopServer(s)));
  stopped = Date.now();
}
if (flags["cpu-prof"]) printProfiles(profileDir, { loadStarted, loadEnded, stopped });
