/**
 * What the API rate limiter costs (part of `npm run bench`): GET /api/v1/tenants on two instances
 * of the app on the same database, one with the limits on (a quota no run reaches, so every
 * request is counted by the limiter's upsert and none is refused) and one with them off (0),
 * repetitions alternating which goes first. Target: limits on ≥ 90% of limits off in req/s.
 */
import autocannon, { type Result } from "autocannon";
import type pg from "pg";
import { backendPids } from "./harness.ts";
import type { Server } from "./procs.ts";
import { median } from "./report.ts";
import { cpuBetween, sampleCpu, type Machine } from "./system.ts";

export const RATE_LIMIT_TARGET = 0.9;

export interface LimitRun {
  limits: "on" | "off";
  rep: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  serverMsPerRequest: number;
  databaseMsPerRequest: number;
  otherCores: number;
}

export interface LimitSide {
  reqPerSec: number;
  p50: number;
  p99: number;
  serverMsPerRequest: number;
  databaseMsPerRequest: number;
  reqPerSecRange: [number, number];
}

export interface RateLimitCost {
  runs: LimitRun[];
  on: LimitSide;
  off: LimitSide;
  ratio: number;
  met: boolean;
}

function assertAll2xx(result: Result, what: string): void {
  if (result.non2xx || result.errors || result.timeouts) {
    throw new Error(`${what}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
}

function side(runs: LimitRun[]): LimitSide {
  const rates = runs.map((r) => r.reqPerSec);
  return {
    reqPerSec: median(rates),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    serverMsPerRequest: median(runs.map((r) => r.serverMsPerRequest)),
    databaseMsPerRequest: median(runs.map((r) => r.databaseMsPerRequest)),
    reqPerSecRange: [Math.min(...rates), Math.max(...rates)],
  };
}

export async function measureRateLimitCost(options: {
  on: Server;
  off: Server;
  token: string;
  db: pg.Client;
  reps: number;
  durationSeconds: number;
  connections: number;
  log: (line: string) => void;
}): Promise<RateLimitCost> {
  const { on, off, token, db, reps, durationSeconds, connections, log } = options;
  const load = (server: Server, seconds: number) =>
    Promise.resolve(
      autocannon({
        url: `${server.url}/api/v1/tenants`,
        headers: { authorization: `Bearer ${token}` },
        connections,
        duration: seconds,
        timeout: 10,
      }),
    );
  const targets = [
    { limits: "on" as const, server: on },
    { limits: "off" as const, server: off },
  ];
  for (const { limits, server } of targets) assertAll2xx(await load(server, 3), `rate limits ${limits} (warm-up)`);

  const runs: LimitRun[] = [];
  for (let rep = 1; rep <= reps; rep++) {
    for (const { limits, server } of rep % 2 ? targets : [...targets].reverse()) {
      assertAll2xx(await load(server, 1), `rate limits ${limits} (warm-up)`);
      const pids = await backendPids(db);
      const before = sampleCpu(server.child.pid!, pids);
      const result = await load(server, durationSeconds);
      const after = sampleCpu(server.child.pid!, [...new Set([...pids, ...(await backendPids(db))])]);
      assertAll2xx(result, `rate limits ${limits}`);
      const cpu = cpuBetween(before, after, result["2xx"]);
      const run: LimitRun = {
        limits,
        rep,
        reqPerSec: result["2xx"] / result.duration,
        p50: result.latency.p50,
        p99: result.latency.p99,
        serverMsPerRequest: cpu.serverMsPerRequest,
        databaseMsPerRequest: cpu.databaseMsPerRequest,
        otherCores: cpu.otherCores,
      };
      runs.push(run);
      log(
        `GET /api/v1/tenants, rate limits ${limits.padEnd(3)} rep ${rep}: ${run.reqPerSec.toFixed(0).padStart(5)} req/s, ` +
          `p99 ${run.p99} ms, server ${run.serverMsPerRequest.toFixed(2)} CPU ms/req, Postgres ${run.databaseMsPerRequest.toFixed(2)}`,
      );
    }
  }
  const onSide = side(runs.filter((r) => r.limits === "on"));
  const offSide = side(runs.filter((r) => r.limits === "off"));
  const ratio = onSide.reqPerSec / offSide.reqPerSec;
  return { runs, on: onSide, off: offSide, ratio, met: ratio >= RATE_LIMIT_TARGET };
}

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function rateLimitSection(
  cost: RateLimitCost,
  context: { date: string; command: string; commit: string; machine: Machine; reps: number; durationSeconds: number; connections: number },
): string {
  const m = context.machine;
  const row = (name: string, s: LimitSide) =>
    `| ${name} | ${fmt(s.reqPerSec)} | ${s.p50} | ${s.p99} | ${fmt(s.serverMsPerRequest, 2)} | ${fmt(s.databaseMsPerRequest, 2)} | ${fmt(s.reqPerSecRange[0])}–${fmt(s.reqPerSecRange[1])} |`;
  return `## Rate limits: cost

Command: \`${context.command}\` (\`npm run bench\` runs this after the "Tenants API" scenarios;
\`--scenarios none\` runs only this part).

- Date: ${context.date}; tree at commit \`${context.commit}\`.
- Machine: ${m.nproc} CPUs, ${m.memTotalGiB} GiB RAM, ${m.cpuModel}; Node ${m.node}; ${m.postgres.replace(/ on .*/, "")}.
  Other load during the runs: median ${fmt(median(cost.runs.map((r) => r.otherCores)), 2)} cores.

**Method.** Two instances of the app's production build on the same database (10,000 tenants),
one with the limits on (bench/settings.ts: every \`RATE_LIMIT_*\` at 10⁹, so every request
goes through the limiter, from a lease or through the counting upsert, and none is refused) and
one with all \`0\` (no counting). \`GET /api/v1/tenants\` with one token, autocannon at ${context.connections} connections,
${context.reps} repetitions each of 1 s warm-up + ${context.durationSeconds} s, on and off alternating; medians.

| Limits | req/s | p50 ms | p99 ms | server CPU ms/req | Postgres CPU ms/req | req/s range |
|:---|---:|---:|---:|---:|---:|---:|
${row("on", cost.on)}
${row("off", cost.off)}

Limits on reach **${fmt(cost.ratio * 100)}%** of limits off (target ≥ ${fmt(RATE_LIMIT_TARGET * 100)}%): **${cost.met ? "met" : "not met"}**.
How: a token's request is counted inside the statement that looks the token up (a data-modifying
CTE), so the limit adds no round trip, and an instance claims up to 50 requests of a large quota per
upsert (2%; quotas under 100 are counted exactly), because one row rewritten per request (a new row
version each time) cost Postgres ~0.3 ms per request here. The table is UNLOGGED (no WAL flush).
`;
}
