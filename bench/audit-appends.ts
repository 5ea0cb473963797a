/**
 * The appends part of `npm run bench:audit`: appends to one tenant's chain through `server`
 * (`workers` processes): single events at 10 and 50 connections, batches of 100 at 10; each load
 * `reps` times, the rep of median events/s reported, with the CPU the app (all its processes)
 * and Postgres spent per request, from /proc (robust to the machine's other load).
 */
import { loadavg } from "node:os";
import type { Options } from "autocannon";
import { log, withClient } from "./harness.ts";
import type { Server } from "./procs.ts";
import { cpuBetween, processTree, sampleCpu } from "./system.ts";
import { check, load } from "./audit-load.ts";
import type { AuditReport } from "./audit-report.ts";

type AppendRun = AuditReport["appends"][number];

let appended = 0;
const appendedEvent = () => ({
  event_type: "bench.appended",
  actor: { id: "bench", email: "bench@example.com" },
  details: { n: ++appended },
});

export interface AppendOptions {
  /** The app's database: its connections' CPU is Postgres's share. */
  db: string;
  dbUrl: string;
  seconds: number;
  /** Of each load before its measured runs (3). */
  warmupSeconds?: number;
  reps: number;
}

export async function measureAppends(
  server: Server,
  token: string,
  tenantId: string,
  workers: number,
  options: AppendOptions,
): Promise<AppendRun[]> {
  const loads = [
    { label: "`POST …/audit`, 10 connections", route: "audit", connections: 10, perRequest: 1 },
    { label: "`POST …/audit`, 50 connections", route: "audit", connections: 50, perRequest: 1 },
    { label: "`POST …/audit/batch` of 100, 10 connections", route: "audit/batch", connections: 10, perRequest: 100 },
  ];
  const out: AppendRun[] = [];
  for (const { label, route, connections, perRequest } of loads) {
    const request: Options = {
      url: server.url,
      requests: [
        {
          method: "POST",
          path: `/api/v1/tenants/${tenantId}/${route}`,
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify(perRequest === 1 ? appendedEvent() : { events: Array.from({ length: perRequest }, appendedEvent) }),
          }),
        },
      ],
    };
    if (options.warmupSeconds !== 0) check(await load(request, connections, options.warmupSeconds ?? 3), `append warm-up: ${label}`);
    const reps: AppendRun[] = [];
    for (let rep = 0; rep < options.reps; rep++) {
      const pids = processTree(server.child.pid!);
      const dbPids = await withClient(options.dbUrl, async (c) =>
        (
          await c.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [options.db])
        ).rows.map((r) => r.pid),
      );
      const before = pids.map((pid) => sampleCpu(pid, dbPids));
      const result = await load(request, connections, options.seconds);
      const after = pids.map((pid) => sampleCpu(pid, dbPids));
      check(result, `append: ${label}`);
      const usage = before.map((b, i) => cpuBetween(b, after[i]!, result.requests.total));
      const run: AppendRun = {
        label: workers > 1 ? `${label}, ${workers} app processes` : label,
        connections,
        eventsPerSecond: result.requests.average * perRequest,
        p99: result.latency.p99,
        load1: loadavg()[0]!,
        workers,
        appCpuMsPerRequest: usage.reduce((sum, u) => sum + u.serverMsPerRequest, 0),
        dbCpuMsPerRequest: usage[0]!.databaseMsPerRequest,
        otherCores: usage[0]!.otherCores,
      };
      reps.push(run);
      log(
        `append ${label} (${workers} process(es)), rep ${rep + 1}: ${run.eventsPerSecond.toFixed(0)} events/s, p99 ${run.p99} ms, ` +
          `app ${run.appCpuMsPerRequest!.toFixed(2)} ms CPU/request, Postgres ${run.dbCpuMsPerRequest!.toFixed(2)} ms`,
      );
    }
    const sorted = [...reps].sort((a, b) => a.eventsPerSecond - b.eventsPerSecond);
    out.push({ ...sorted[Math.floor((sorted.length - 1) / 2)]!, repsEventsPerSecond: reps.map((r) => r.eventsPerSecond) });
  }
  return out;
}
