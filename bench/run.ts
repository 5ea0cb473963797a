/**
 * `npm run bench`: HTTP benchmark of the tenants API against a bare node:http + pg baseline.
 *
 * One run: drop and create the database cp_bench, build the app into .next-bench if stale, start
 * it on cp_bench (it migrates and creates the operator and token itself), seed 10,000 tenants,
 * start the baseline (bench/baseline.ts) on the same database, check both answer the same, then
 * load each scenario with autocannon (warm-up, fixed duration, repetitions alternating app and
 * baseline). Prints a table, writes bench/results/<date>.json and (--markdown) the "Tenants API" section of
 * docs/benchmarks/tenants-api.md. Any non-2xx response or socket error fails the run. Servers are stopped and
 * cp_bench dropped at the end, also on failure or Ctrl-C.
 *
 * Then the rate limiter's cost (bench/rate-limit.ts): the first page on a second app instance with
 * the limits off against the first (limits on), section "Rate limits: cost" of the same file.
 *
 * Options: --duration <s> (6) --warmup <s> (3, per scenario and server, once) --reps <n> (3)
 *          --connections <n> (10)
 *          --scenarios list,cursor,create (or none)   --skip-rate-limits
 *          --skip-build   --keep-db
 *          --api-only (bench/api-server.ts: the REST edge without Next and no build; quick A/B of the edge)
 *          --markdown (write both sections of docs/benchmarks/tenants-api.md)
 *          --smoke (1 s runs, 1 rep: what `npm test` runs; the answers and writes are checked, the numbers mean nothing)
 *          --render bench/results/<date>.json (only rewrite the section from a saved run)
 * Env: BENCH_ADMIN_URL (postgres://postgres@127.0.0.1:5432/postgres), BENCH_DB (cp_bench).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import autocannon, { type Options, type Result } from "autocannon";
import pg from "pg";
import {
  BENCH_URL,
  DB_NAME,
  POOL_SIZE,
  ROOT,
  SEED_TENANTS,
  backendPids,
  dropDatabase,
  ensureBuild,
  getJson,
  gitInfo,
  log,
  middleCursor,
  newToken,
  recreateDatabase,
  resetWrites,
  seed,
  startApp,
  startBaseline,
  writeRunSection,
} from "./harness.ts";
import { benchFlags, runBench } from "./cli.ts";
import { freePort, stopServer, type Server } from "./procs.ts";
import { cpuBetween, machine, sampleCpu } from "./system.ts";
import { measureRateLimitCost, rateLimitSection, type RateLimitCost } from "./rate-limit.ts";
import { LIMITS_OFF } from "./settings.ts";
import { consoleReport, markdownSection, summarize, verdicts, type Measurement, type Report, type TargetName } from "./report.ts";

const flags = benchFlags(
  {
    duration: { type: "string", default: "6" },
    warmup: { type: "string", default: "3" },
    reps: { type: "string", default: "3" },
    connections: { type: "string", default: "10" },
    scenarios: { type: "string", default: "list,cursor,create" },
    "skip-build": { type: "boolean" },
    "api-only": { type: "boolean" },
    "skip-rate-limits": { type: "boolean" },
    "keep-db": { type: "boolean" },
    render: { type: "string" },
  },
  { duration: "1", warmup: "1", reps: "1" },
);
const DURATION = Number(flags.duration);
const WARMUP = Number(flags.warmup);
const REPS = Number(flags.reps);
const CONNECTIONS = Number(flags.connections);
const SCENARIOS = flags.scenarios.split(",").filter((name) => name && name !== "none");

// ---------------------------------------------------------------------------------------------
// Scenarios

interface Target {
  name: TargetName;
  server: Server;
}

interface Scenario {
  label: string;
  options: (base: string, tag: string) => Options;
  writes: boolean;
}

function scenarios(token: string, cursor: string): Record<string, Scenario> {
  const auth = { authorization: `Bearer ${token}` };
  let sequence = 0;
  return {
    list: {
      label: "GET /api/v1/tenants",
      writes: false,
      options: (base) => ({ url: `${base}/api/v1/tenants`, headers: auth }),
    },
    cursor: {
      label: "GET /api/v1/tenants?cursor=…",
      writes: false,
      options: (base) => ({ url: `${base}/api/v1/tenants?cursor=${cursor}`, headers: auth }),
    },
    create: {
      label: "POST /api/v1/tenants",
      writes: true,
      options: (base, tag) => ({
        url: `${base}/api/v1/tenants`,
        requests: [
          {
            method: "POST",
            path: "/api/v1/tenants",
            headers: { ...auth, "content-type": "application/json" },
            setupRequest: (request) => {
              sequence += 1;
              return {
                ...request,
                headers: { ...request.headers, "idempotency-key": `bench-${tag}-${sequence}` },
                body: JSON.stringify({ name: `bench-${tag}-${sequence}` }),
              };
            },
          },
        ],
      }),
    },
  };
}

function load(options: Options, seconds: number): Promise<Result> {
  return Promise.resolve(autocannon({ ...options, connections: CONNECTIONS, duration: seconds, timeout: 10 }));
}

function assertAll2xx(result: Result, what: string, server: Server): void {
  if (result.non2xx || result.errors || result.timeouts) {
    const codes = Object.entries(result.statusCodeStats)
      .map(([code, { count }]) => `${code}×${count}`)
      .join(", ");
    throw new Error(
      `${what}: ${result.non2xx} non-2xx responses, ${result.errors} errors, ${result.timeouts} timeouts ` +
        `(status codes: ${codes || "none"}). Last server output:\n${server.output()}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Checks before measuring: both servers answer, and answer the same.

async function checkEquivalent(app: string, baseline: string, query: string, token: string): Promise<void> {
  const [a, b] = await Promise.all([getJson(`${app}/api/v1/tenants${query}`, token), getJson(`${baseline}/api/v1/tenants${query}`, token)]);
  for (const field of ["results", "count", "next_cursor", "previous_cursor"]) {
    if (JSON.stringify(a[field]) !== JSON.stringify(b[field])) {
      throw new Error(`app and baseline disagree on "${field}" for GET /api/v1/tenants${query}`);
    }
  }
  for (const field of ["next", "previous"]) {
    const strip = (v: unknown) => (typeof v === "string" ? new URL(v).search : v);
    if (strip(a[field]) !== strip(b[field])) throw new Error(`app and baseline disagree on "${field}" for ${query || "the first page"}`);
  }
}

async function checkCreate(base: string, token: string, tag: string): Promise<void> {
  const response = await fetch(`${base}/api/v1/tenants`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": `bench-check-${tag}` },
    body: JSON.stringify({ name: `bench-check-${tag}` }),
  });
  const body = await response.text();
  if (response.status !== 201 || !response.headers.get("location")) {
    throw new Error(`POST ${base}/api/v1/tenants: ${response.status} ${body}`);
  }
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = new Date();
  const servers: Server[] = [];
  let db: pg.Client | undefined;
  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await Promise.all(servers.map((s) => stopServer(s).catch(() => undefined)));
      await db?.end().catch(() => undefined);
      if (!flags["keep-db"]) await dropDatabase().catch((e: Error) => console.error(`could not drop ${DB_NAME}: ${e.message}`));
    })());
  // Ctrl-C reaches this process twice (from the terminal and relayed by tsx): clean up once, and
  // let nothing cut the clean-up short.
  let signalled = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (signalled) return;
      signalled = true;
      console.error(`\n${signal}: stopping servers and dropping ${DB_NAME}`);
      void cleanup().finally(() => process.exit(130));
    });
  }

  try {
    const postgresVersion = await recreateDatabase();
    const git = gitInfo();
    const apiOnly = flags["api-only"];
    const build = apiOnly ? "none (--api-only)" : ensureBuild(flags["skip-build"]);
    const token = newToken();

    // The app, on cp_bench: it applies its migrations and creates the operator and its token.
    const track = (server: Server) => servers.push(server);
    // Limits on, with a quota no run reaches: every request pays for the limiter, none is refused.
    const app = await startApp({ port: await freePort(), token, track, apiOnly });
    const appUrl = app.url;
    log(`app ready on ${appUrl} (pid ${app.child.pid})`);

    db = new pg.Client({ connectionString: BENCH_URL });
    await db.connect();
    const seedStart = Date.now();
    await seed(db);
    log(`seeded ${SEED_TENANTS} tenants in ${Date.now() - seedStart} ms`);

    const baseline = await startBaseline({ port: await freePort(), track });
    const baseUrl = baseline.url;
    log(`baseline ready on ${baseUrl} (pid ${baseline.child.pid})`);

    const appOff = flags["skip-rate-limits"]
      ? null
      : await startApp({ port: await freePort(), token, track, apiOnly, env: LIMITS_OFF, name: "limits-off app" });
    if (appOff) log(`app with rate limits off ready on ${appOff.url} (pid ${appOff.child.pid})`);

    const cursor = await middleCursor(appUrl, token);
    await checkEquivalent(appUrl, baseUrl, "", token);
    await checkEquivalent(appUrl, baseUrl, `?cursor=${cursor}`, token);
    await checkCreate(appUrl, token, "app");
    await checkCreate(baseUrl, token, "baseline");
    await resetWrites(db);
    log("app and baseline give the same answers; measuring");

    const all = scenarios(token, cursor);
    for (const name of SCENARIOS) if (!all[name]) throw new Error(`unknown scenario "${name}" (have: ${Object.keys(all).join(", ")})`);
    const targets: Target[] = [
      { name: "app", server: app },
      { name: "baseline", server: baseline },
    ];
    // Warm-up round: the app's JIT needs a few hundred requests of every kind before its cost
    // per request settles (the first measured run was ~25% dearer without this).
    for (const name of SCENARIOS) {
      for (const target of targets) {
        const warm = await load(all[name]!.options(target.server.url, `${target.name}-warm`), WARMUP);
        assertAll2xx(warm, `${all[name]!.label} on ${target.name} (warm-up)`, target.server);
        if (all[name]!.writes) await resetWrites(db);
      }
    }
    log(`warmed up (${WARMUP} s of every scenario on both servers)`);

    const measurements: Measurement[] = [];
    for (const name of SCENARIOS) {
      const scenario = all[name]!;
      for (let rep = 1; rep <= REPS; rep++) {
        // Alternate who goes first, so a drift in machine load does not favour one side.
        const order = rep % 2 ? targets : [...targets].reverse();
        for (const target of order) {
          const tag = `${target.name}-${rep}`;
          const options = scenario.options(target.server.url, tag);
          const warm = await load(options, 1);
          assertAll2xx(warm, `${scenario.label} on ${target.name} (warm-up)`, target.server);

          const pids = await backendPids(db);
          const before = sampleCpu(target.server.child.pid!, pids);
          const result = await load(options, DURATION);
          const after = sampleCpu(target.server.child.pid!, [...new Set([...pids, ...(await backendPids(db))])]);
          assertAll2xx(result, `${scenario.label} on ${target.name}`, target.server);

          const requests = result["2xx"];
          const m: Measurement = {
            scenario: name,
            target: target.name,
            rep,
            durationSeconds: result.duration,
            requests,
            reqPerSec: requests / result.duration,
            latencyMs: {
              p50: result.latency.p50,
              p90: result.latency.p90,
              p99: result.latency.p99,
              max: result.latency.max,
              mean: result.latency.mean,
            },
            non2xx: result.non2xx,
            errors: result.errors,
            timeouts: result.timeouts,
            statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
            cpu: cpuBetween(before, after, requests),
          };
          measurements.push(m);
          log(
            `${scenario.label.padEnd(30)} ${target.name.padEnd(8)} rep ${rep}: ${m.reqPerSec.toFixed(0).padStart(5)} req/s, ` +
              `p50 ${m.latencyMs.p50} ms, p99 ${m.latencyMs.p99} ms, server ${m.cpu.serverMsPerRequest.toFixed(2)} CPU ms/req, ` +
              `other load ${m.cpu.otherCores.toFixed(2)} cores`,
          );

          if (scenario.writes) {
            // Every 2xx created a tenant and its audit event (requests still in flight when the
            // load stopped may have added more tenants than counted responses, never fewer).
            const removed = await resetWrites(db);
            if (removed.tenants < warm["2xx"] + requests || removed.events !== removed.tenants) {
              throw new Error(
                `${scenario.label} on ${target.name}: ${warm["2xx"] + requests} responses 201, but ${removed.tenants} tenants and ${removed.events} audit events were written`,
              );
            }
          }
        }
      }
    }

    let rateLimits: RateLimitCost | undefined;
    if (appOff) {
      rateLimits = await measureRateLimitCost({
        on: app,
        off: appOff,
        token,
        db,
        reps: REPS,
        durationSeconds: DURATION,
        connections: CONNECTIONS,
        log,
      });
      log(`rate limits on: ${(rateLimits.ratio * 100).toFixed(0)}% of off (target ≥ 90%: ${rateLimits.met ? "met" : "NOT met"})`);
    }

    const labels = Object.fromEntries(SCENARIOS.map((name) => [name, all[name]!.label]));
    const summary = summarize(measurements, SCENARIOS);
    const report: Report & { rateLimits?: RateLimitCost } = {
      date: started.toISOString(),
      command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`,
      git,
      machine: machine(postgresVersion),
      settings: {
        connections: CONNECTIONS,
        durationSeconds: DURATION,
        warmupSeconds: WARMUP,
        reps: REPS,
        seedTenants: SEED_TENANTS,
        poolSize: POOL_SIZE,
        build,
      },
      scenarios: labels,
      measurements,
      summary,
      verdicts: verdicts(summary, SCENARIOS),
      rateLimits,
    };

    const resultsDir = path.join(ROOT, "bench/results");
    mkdirSync(resultsDir, { recursive: true });
    const resultsFile = path.join("bench/results", `${started.toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(path.join(ROOT, resultsFile), `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\n${consoleReport(report)}\n`);
    const uncomputed = report.verdicts.filter((v) => !Number.isFinite(v.throughputRatio) || !Number.isFinite(v.p99Ratio));
    if (uncomputed.length || (rateLimits && !Number.isFinite(rateLimits.ratio)))
      throw new Error(`ratios not computed: ${uncomputed.map((v) => v.scenario).join(", ") || "rate limits"}`);
    log(`wrote ${resultsFile}`);
    if (flags.markdown && SCENARIOS.length) {
      writeRunSection("tenants-api.md", markdownSection(report, resultsFile), "## Tenants API");
    }
    if (flags.markdown && rateLimits) {
      const context = {
        date: report.date,
        command: report.command,
        commit: git.commit,
        machine: report.machine,
        reps: REPS,
        durationSeconds: DURATION,
        connections: CONNECTIONS,
      };
      writeRunSection("tenants-api.md", rateLimitSection(rateLimits, context), "## Rate limits: cost");
    }
    const missed = report.verdicts.filter((v) => !v.throughputMet || !v.p99Met);
    if (missed.length) log(`targets missed: ${missed.map((v) => labels[v.scenario]).join("; ")}`);
  } finally {
    await cleanup();
    log(
      `done in ${((Date.now() - started.getTime()) / 1000).toFixed(0)} s; servers stopped, ${DB_NAME} ${flags["keep-db"] ? "kept" : "dropped"}`,
    );
  }
}

/** `--render bench/results/<date>.json`: rewrites the "Tenants API" section from a saved run. */
function render(file: string): void {
  const report = JSON.parse(readFileSync(path.resolve(ROOT, file), "utf8")) as Report;
  writeRunSection("tenants-api.md", markdownSection(report, path.relative(ROOT, path.resolve(ROOT, file))), "## Tenants API");
}

if (flags.render) {
  render(flags.render);
} else {
  runBench("bench", main);
}
