/**
 * `npm run bench:audit`: the audit log at scale (issue 5), each number next to a baseline
 * measured in the same run.
 *
 * 1. Drops and creates cp_bench_audit, starts the app on it (it migrates), seeds 1,000,000
 *    events over 50 tenants plus 1,000,000 for one export tenant (bench/audit-seed.ts, through
 *    the chain trigger).
 * 2. Filtered list pages (`event_type=user.*` + `start_date` six months back: prefix expansion,
 *    date range and a real count), first page and a deep cursor page (page 150), rotating over
 *    the 50 tenants, at 10 connections: the app vs bench/audit-baseline.ts (bare node:http + pg
 *    running the app's own SQL). Reps alternate app and baseline; medians reported.
 * 3. Export of the export tenant's 1,000,000 rows as CSV through the app (streamed, read to the
 *    end), time and the app's RSS growth (sampled from /proc every 25 ms), vs `psql \copy` of the
 *    same rows and columns to a file (bench/audit-export.ts).
 * 4. Appends with the hash chain for one tenant: POST /api/v1/tenants/{id}/audit at 10 and 50
 *    connections, and POST …/audit/batch of 100 events, --reps times each (bench/audit-appends.ts);
 *    then GET …/audit/verify must answer valid.
 *
 * Options: --duration <s> (6) --warmup <s> (2; 0: none) --reps <n> (3) --skip-build
 *          --api-only (bench/api-server.ts: the REST edge without Next, no build)
 *          --filters <names> (all: bigFilters() in bench/audit-big.ts, or a comma list of their names)
 *          --markdown (write the run's sections of docs/benchmarks/)
 *          --smoke (api-only, 20,000 + 2,000 + 40,000 events, two filters, no warm-up, 0.5 s runs, 1 rep,
 *          1 and 2 workers: what `npm test` runs; every check holds, the numbers mean nothing)
 *          --events <n> (1000000) --export-events <n> (1000000) --big-events <n> (5000000), smaller
 *          for a quick try
 *          --db <name> (cp_bench_audit) --keep-db: leave the database (seeded) in place; --seed-only: seed it and stop (implies
 *          --keep-db); --reuse-db: measure on it as it is (no drop, no seed)
 *          --only <parts>: a comma list of small (2), big (5), export (3), appends (4); default all.
 *          A partial run writes its own section of docs/benchmarks/audit.md ("Audit log: large tenant and appends")
 *          --workers <list> (1): appends are measured once per WEB_CONCURRENCY in the list (e.g. 1,2)
 * The quiet-machine run in two steps: seed once (any time, under load if need be)
 *   npm run bench:audit -- --api-only --seed-only --events 200000 --export-events 1000 --big-events 5000000
 * then, in a quiet window:
 *   npm run bench:audit -- --api-only --reuse-db --keep-db --only big,appends --workers 1,2 --duration 4 --reps 3
 * 5. The large tenant (--big-events in one tenant): first and deep cursor page of each filter of
 *    issue 12 (bench/audit-big.ts) vs the baseline, the count and page queries' plans (EXPLAIN
 *    ANALYZE), verify of its whole chain, table and index sizes per million events.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Options } from "autocannon";
import { ADMIN_URL, ROOT, RUNS_DIR, ensureBuild, getJson, log, newToken, startApp, withClient, writeRunSection } from "./harness.ts";
import { benchFlags, refuse, runBench } from "./cli.ts";
import { freePort, startServer, stopServer, waitReady, type Server } from "./procs.ts";
import { machine } from "./system.ts";
import { planCosts } from "./audit-plans.ts";
import { seedAudit } from "./audit-seed.ts";
import {
  auditMarkdown,
  auditPlansMarkdown,
  FULL_HEADING,
  PARTIAL_HEADING,
  plansFile,
  type AuditReport,
  type BigRun,
  type ListRun,
} from "./audit-report.ts";
import { bigFilters, deepCursorOf, explainPlans, sizes, timeVerify } from "./audit-big.ts";
import { check, load } from "./audit-load.ts";
import { exportThroughApp, exportThroughCopy } from "./audit-export.ts";
import { measureAppends } from "./audit-appends.ts";
import { loadavg } from "node:os";

const flags = benchFlags(
  {
    duration: { type: "string", default: "6" },
    reps: { type: "string", default: "3" },
    "skip-build": { type: "boolean" },
    "api-only": { type: "boolean" },
    "keep-db": { type: "boolean" },
    "reuse-db": { type: "boolean" },
    "seed-only": { type: "boolean" },
    only: { type: "string", default: "small,big,export,appends" },
    db: { type: "string", default: "cp_bench_audit" },
    workers: { type: "string", default: "1" },
    warmup: { type: "string", default: "2" },
    filters: { type: "string", default: "all" },
    events: { type: "string", default: "1000000" },
    "export-events": { type: "string", default: "1000000" },
    "big-events": { type: "string", default: "5000000" },
  },
  {
    duration: "0.5",
    warmup: "0",
    filters: "unfiltered,type + actor",
    reps: "1",
    "api-only": true,
    events: "20000",
    "export-events": "2000",
    "big-events": "40000",
    workers: "1,2",
  },
);
const DURATION = Number(flags.duration);
const WARMUP = Number(flags.warmup);
const FILTERS = flags.filters === "all" ? bigFilters() : bigFilters().filter((f) => flags.filters.split(",").includes(f.name));
if (!FILTERS.length)
  refuse(
    `--filters: none of ${bigFilters()
      .map((f) => f.name)
      .join(", ")}`,
  );
const PARTS = new Set(flags.only.split(",").map((part) => part.trim()));
for (const part of PARTS) if (!["small", "big", "export", "appends"].includes(part)) refuse(`--only: unknown part ${part}`);
const PARTIAL = PARTS.size < 4;
const WORKERS = flags.workers.split(",").map(Number);
const KEEP_DB = flags["keep-db"] || flags["seed-only"];
const REPS = Number(flags.reps);
const DB = flags.db;
if (!/^[a-z_][a-z0-9_]*$/.test(DB)) refuse(`--db: not a plain database name: ${DB}`);
const DB_URL = Object.assign(new URL(ADMIN_URL), { pathname: `/${DB}` }).toString();
const SIX_MONTHS_AGO = new Date(Date.now() - 182 * 86400_000).toISOString().slice(0, 10);
const FILTER = `event_type=user.*&start_date=${SIX_MONTHS_AGO}`;

/** Requests rotating over the tenants: GET {path(tenant)} with the operator's token. */
function rotating(base: string, token: string, paths: string[]): Options {
  let i = 0;
  return {
    url: base,
    requests: [
      {
        method: "GET",
        headers: { authorization: `Bearer ${token}` },
        setupRequest: (request) => ({ ...request, path: paths[i++ % paths.length]! }),
      },
    ],
  };
}

/** The cursor after page 150 of the filtered list (or ¾ of the way when there are fewer pages). */
async function deepCursor(app: string, token: string, tenantId: string): Promise<string> {
  const first = await getJson(`${app}/api/v1/tenants/${tenantId}/audit?${FILTER}`, token);
  const pageNumber = Math.max(1, Math.min(150, Math.floor((Number(first.count) / 20) * 0.75)));
  const page = await getJson(`${app}/api/v1/tenants/${tenantId}/audit?${FILTER}&page=${pageNumber}`, token);
  if (typeof page.next_cursor !== "string") throw new Error(`tenant ${tenantId} has no page ${pageNumber} for ${FILTER}`);
  return page.next_cursor;
}

async function main(): Promise<void> {
  const servers: Server[] = [];
  const started = new Date();
  const version = await withClient(ADMIN_URL, async (c) => {
    if (!flags["reuse-db"]) {
      await c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${DB}`);
    }
    return (await c.query<{ version: string }>("SELECT version()")).rows[0]!.version;
  });
  try {
    const build = flags["api-only"]
      ? "no build: bench/api-server.ts (serve.ts's REST edge without Next)"
      : ensureBuild(flags["skip-build"]);
    const token = newToken();
    const app = await startApp({
      port: await freePort(),
      token,
      databaseUrl: DB_URL,
      track: (s) => servers.push(s),
      apiOnly: flags["api-only"],
      // Rate limits on (as in production), with quotas no load reaches.
    });
    const names = async () =>
      withClient(DB_URL, (c) =>
        c.query<{ id: string; name: string }>("SELECT id, name FROM tenants WHERE name LIKE 'Audit bench%' ORDER BY name"),
      );
    let rows = (await names()).rows;
    if (!rows.length) {
      const bigEvents = Number(flags["big-events"]);
      await seedAudit(DB_URL, { tenants: 50, events: Number(flags.events), exportEvents: Number(flags["export-events"]), bigEvents }, log);
      rows = (await names()).rows;
    }
    if (flags["seed-only"]) {
      log(`${DB} is seeded and kept; measure with --reuse-db`);
      return;
    }
    const exportTenant = rows.find((r) => r.name === "Audit bench export")!.id;
    const bigTenant = rows.find((r) => r.name === "Audit bench big")?.id;
    const tenants = rows.filter((r) => r.id !== exportTenant && r.id !== bigTenant).map((r) => r.id);
    const totalEvents = await withClient(DB_URL, async (c) => Number((await c.query("SELECT count(*) FROM audit_events")).rows[0].count));

    const baselinePort = await freePort();
    const baseline = startServer(
      "baseline",
      `http://127.0.0.1:${baselinePort}`,
      process.execPath,
      ["--import", "tsx", "--import", path.join(ROOT, "scripts/server-only.mjs"), path.join(ROOT, "bench/audit-baseline.ts")],
      {
        ...process.env,
        NODE_ENV: "production",
        BASELINE_DATABASE_URL: DB_URL,
        BASELINE_PORT: String(baselinePort),
      },
    );
    servers.push(baseline);
    await waitReady(baseline, `${baseline.url}/healthz`);

    const list: ListRun[] = [];
    if (PARTS.has("small")) await smallTenants();
    async function smallTenants() {
      // Same answers from both before measuring.
      const cursors = await Promise.all(tenants.map((t) => deepCursor(app.url, token, t)));
      for (const query of [FILTER, `${FILTER}&cursor=${cursors[0]}`]) {
        const [a, b] = await Promise.all(
          [app, baseline].map((s) => getJson(`${s.url}/api/v1/tenants/${tenants[0]}/audit?${query}`, token)),
        );
        for (const field of ["results", "count", "next_cursor", "previous_cursor"]) {
          if (JSON.stringify(a![field]) !== JSON.stringify(b![field]))
            throw new Error(`app and baseline disagree on ${field} for ${query}`);
        }
      }

      const scenarios = {
        first: tenants.map((t) => `/api/v1/tenants/${t}/audit?${FILTER}`),
        deep: tenants.map((t, i) => `/api/v1/tenants/${t}/audit?${FILTER}&cursor=${cursors[i]}`),
      };
      for (const [scenario, paths] of Object.entries(scenarios)) {
        if (WARMUP)
          for (const server of [app, baseline]) check(await load(rotating(server.url, token, paths), 10, WARMUP), `warm-up ${scenario}`);
        for (let rep = 0; rep < REPS; rep++) {
          for (const server of rep % 2 ? [baseline, app] : [app, baseline]) {
            const result = await load(rotating(server.url, token, paths), 10, DURATION);
            check(result, `${server.name} ${scenario}`);
            list.push({
              scenario,
              target: server.name as "app" | "baseline",
              rps: result.requests.average,
              p50: result.latency.p50,
              p99: result.latency.p99,
            });
            log(`${scenario} ${server.name}: ${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms`);
          }
        }
      }
    }

    const big: BigRun[] = [];
    const plans: { filter: string; count: string; first: string; deep: string }[] = [];
    let bigSummary: AuditReport["big"];
    if (bigTenant && PARTS.has("big")) {
      for (const { name, query } of FILTERS) {
        const cursor = await deepCursorOf(app.url, token, bigTenant, query);
        const pages = {
          first: `/api/v1/tenants/${bigTenant}/audit${query ? `?${query}` : ""}`,
          deep: `/api/v1/tenants/${bigTenant}/audit?${query}${query ? "&" : ""}cursor=${cursor}`,
        };
        for (const [page, pathname] of Object.entries(pages)) {
          const [a, b] = await Promise.all([app, baseline].map((srv) => getJson(`${srv.url}${pathname}`, token)));
          for (const field of ["results", "count", "next_cursor"]) {
            if (JSON.stringify(a![field]) !== JSON.stringify(b![field]))
              throw new Error(`app and baseline disagree on ${field} for ${name} ${page}`);
          }
          if (WARMUP)
            for (const server of [app, baseline])
              check(await load(rotating(server.url, token, [pathname]), 10, WARMUP / 2), `warm-up ${name}`);
          for (let rep = 0; rep < REPS; rep++) {
            for (const server of rep % 2 ? [baseline, app] : [app, baseline]) {
              const result = await load(rotating(server.url, token, [pathname]), 10, DURATION);
              check(result, `${server.name} ${name} ${page}`);
              big.push({
                filter: name,
                page: page as "first" | "deep",
                target: server.name as "app" | "baseline",
                rps: result.requests.average,
                p50: result.latency.p50,
                p99: result.latency.p99,
                count: Number(a!.count),
                load1: loadavg()[0]!,
              });
              log(
                `big ${name} ${page} ${server.name}: ${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms (count ${a!.count})`,
              );
            }
          }
        }
        const first = await explainPlans(DB_URL, bigTenant, query);
        const deep = await explainPlans(DB_URL, bigTenant, query, cursor);
        plans.push({ filter: name, count: first.count, first: first.page, deep: deep.page });
      }
      const verified = await timeVerify(app.url, token, bigTenant);
      if (!verified.valid) throw new Error("the large tenant's chain did not verify");
      log(`verify of the large tenant: ${verified.checked} events in ${verified.seconds.toFixed(1)} s`);
      const costs = await planCosts(DB_URL, bigTenant);
      bigSummary = {
        events: Number(flags["big-events"]),
        runs: big,
        plans,
        planCosts: costs,
        verify: verified,
        sizes: await sizes(DB_URL),
      };
    }

    const exports: AuditReport["exports"] = [];
    for (let rep = 0; PARTS.has("export") && rep < REPS; rep++) {
      const head = await withClient(DB_URL, (c) => c.query("SELECT sequence FROM audit_chains WHERE chain_id = $1", [exportTenant]));
      const viaApp = await exportThroughApp(app, token, exportTenant);
      const viaCopy = exportThroughCopy(DB_URL, exportTenant, Number(head.rows[0].sequence));
      if (viaApp.rows !== viaCopy.rows) throw new Error(`export wrote ${viaApp.rows} rows, COPY ${viaCopy.rows}`);
      exports.push({ app: viaApp, copy: viaCopy });
      log(
        `export: app ${viaApp.seconds.toFixed(2)} s (+${viaApp.rssGrowthMiB.toFixed(0)} MiB RSS), COPY ${viaCopy.seconds.toFixed(2)} s, ${viaApp.rows} rows`,
      );
    }

    const appends: AuditReport["appends"] = [];
    const appendTenant = tenants[1] ?? tenants[0]!;
    let verifiedChain: number | undefined;
    for (const workers of PARTS.has("appends") ? WORKERS : []) {
      const server =
        workers === 1
          ? app
          : await startApp({
              port: await freePort(),
              token,
              databaseUrl: DB_URL,
              track: (s) => servers.push(s),
              apiOnly: flags["api-only"],
              env: { WEB_CONCURRENCY: String(workers) },
            });
      appends.push(
        ...(await measureAppends(server, token, appendTenant, workers, {
          db: DB,
          dbUrl: DB_URL,
          seconds: DURATION,
          warmupSeconds: WARMUP * 1.5,
          reps: REPS,
        })),
      );
      if (server !== app) await stopServer(server);
    }
    if (PARTS.has("appends")) {
      const verify = await getJson(`${app.url}/api/v1/tenants/${appendTenant}/audit/verify`, token);
      if (verify.valid !== true) throw new Error(`chain broken after the append load: ${JSON.stringify(verify)}`);
      verifiedChain = Number(verify.checked);
    }

    const report: AuditReport = {
      date: started.toISOString(),
      machine: machine(version),
      build,
      totalEvents,
      filter: FILTER,
      durationSeconds: DURATION,
      reps: REPS,
      list,
      exports,
      appends,
      verifiedChain,
      big: bigSummary,
      partial: PARTIAL ? [...PARTS] : undefined,
    };
    mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
    const file = path.join(ROOT, `bench/results/audit-${started.toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, JSON.stringify(report, null, 2));
    const section = auditMarkdown(report, path.relative(ROOT, file));
    console.log(`\n${section}`);
    if (flags.markdown) {
      writeRunSection("audit.md", section, PARTIAL ? PARTIAL_HEADING : FULL_HEADING);
      if (report.big) {
        writeFileSync(path.join(ROOT, RUNS_DIR, plansFile(report)), auditPlansMarkdown(report, report.big, path.relative(ROOT, file)));
        log(`wrote ${RUNS_DIR}/${plansFile(report)}`);
      }
    }
    log(`done in ${((Date.now() - started.getTime()) / 1000).toFixed(0)} s`);
  } finally {
    await Promise.all(servers.map((s) => stopServer(s).catch(() => undefined)));
    if (!KEEP_DB) await withClient(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)).catch(() => undefined);
  }
}

runBench("bench:audit", main);
