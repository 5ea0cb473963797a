/**
 * Single-event appends to one tenant, with the CPU each costs: `POST /api/v1/tenants/{id}/audit`
 * at --connections (50) for --duration seconds (8), against the REST edge without Next
 * (bench/api-server.ts) on a fresh database (cp_bench_audit_append), --reps times (3); then the
 * chain must verify. Prints events/s, p99, the app's and Postgres's CPU per request (from /proc,
 * robust to other load on the machine) and the load average. --workers n runs the app as n
 * processes on one port (WEB_CONCURRENCY); --cpu-prof writes a V8 profile of the app and prints
 * where its time went.
 *
 *   npx tsx --import ./scripts/server-only.mjs bench/audit-append-probe.ts [--workers 2] [--cpu-prof]
 */
import { mkdtempSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { ADMIN_URL, getJson, log, newToken, startApp, withClient } from "./harness.ts";
import { freePort, stopServer, type Server } from "./procs.ts";
import { cpuBetween, processTree, sampleCpu } from "./system.ts";
import { printProfiles } from "./cpuprofile.ts";

const { values: flags } = parseArgs({
  options: {
    connections: { type: "string", default: "50" },
    duration: { type: "string", default: "8" },
    reps: { type: "string", default: "3" },
    workers: { type: "string", default: "1" },
    "cpu-prof": { type: "boolean", default: false },
  },
});
const DB = "cp_bench_audit_append";
const DB_URL = Object.assign(new URL(ADMIN_URL), { pathname: `/${DB}` }).toString();

async function main(): Promise<void> {
  await withClient(ADMIN_URL, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${DB}`);
  });
  const servers: Server[] = [];
  let [loadStarted, loadEnded, stopped] = [0, 0, 0];
  const profileDir = mkdtempSync(path.join(tmpdir(), "cp-append-prof-"));
  try {
    const token = newToken();
    const app = await startApp({
      port: await freePort(),
      token,
      databaseUrl: DB_URL,
      apiOnly: true,
      track: (s) => servers.push(s),
      nodeArgs: flags["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [],
      env: { WEB_CONCURRENCY: flags.workers },
    });
    const created = await fetch(`${app.url}/api/v1/tenants`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Append probe" }),
    });
    const tenantId = ((await created.json()) as { id: string }).id;
    let n = 0;
    const body = () =>
      JSON.stringify({ event_type: "bench.appended", actor: { id: "bench", email: "bench@example.com" }, details: { n: ++n } });
    const run = (duration: number) =>
      autocannon({
        url: app.url,
        connections: Number(flags.connections),
        duration,
        timeout: 10,
        requests: [
          {
            method: "POST",
            path: `/api/v1/tenants/${tenantId}/audit`,
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            setupRequest: (request) => ({ ...request, body: body() }),
          },
        ],
      });
    await run(2);
    loadStarted = Date.now();
    for (let rep = 0; rep < Number(flags.reps); rep++) {
      const pids = processTree(app.child.pid!);
      const dbPids = await withClient(DB_URL, async (c) =>
        (await c.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [DB])).rows.map(
          (r) => r.pid,
        ),
      );
      const before = pids.map((pid) => sampleCpu(pid, dbPids));
      const result = await run(Number(flags.duration));
      const after = pids.map((pid) => sampleCpu(pid, dbPids));
      const requests = result.requests.total;
      const usage = before.map((b, i) => cpuBetween(b, after[i]!, requests));
      const appMs = usage.reduce((sum, u) => sum + u.serverMsPerRequest, 0);
      log(
        `${flags.workers} worker(s), ${flags.connections} connections: ${result.requests.average.toFixed(0)} events/s, p99 ${result.latency.p99} ms, ` +
          `errors ${result.non2xx + result.errors + result.timeouts}; CPU per request: app ${appMs.toFixed(3)} ms, Postgres ${usage[0]!.databaseMsPerRequest.toFixed(3)} ms, ` +
          `load generator ${usage[0]!.loadGeneratorCores.toFixed(2)} cores, other ${usage[0]!.otherCores.toFixed(2)} cores; load avg ${loadavg()[0]!.toFixed(1)}`,
      );
    }
    loadEnded = Date.now();
    const verify = await getJson(`${app.url}/api/v1/tenants/${tenantId}/audit/verify`, token);
    log(`verify: ${JSON.stringify(verify)}`);
  } finally {
    stopped = Date.now();
    await Promise.all(servers.map((s) => stopServer(s).catch(() => undefined)));
    await withClient(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)).catch(() => undefined);
  }
  if (flags["cpu-prof"]) printProfiles(profileDir, { loadStarted, loadEnded, stopped });
}

await main();
