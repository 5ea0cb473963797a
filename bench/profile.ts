/**
 * `npx tsx --import ./scripts/server-only.mjs bench/profile.ts`: where the app's time goes on the tenants API, next to the baseline.
 *
 * 1. SQL per request: app and baseline talk to Postgres through a counting proxy
 *    (bench/pgproxy.ts); 20 sequential requests per kind give statements and round trips per
 *    request, and which statements.
 * 2. Layers: autocannon (10 connections) on requests that stop at successive layers — a 404 from
 *    the REST edge, a 401 before any SQL, a 401 after the token lookup, the full page — with the
 *    server's CPU time per request (from /proc: robust to the other load on the machine).
 * 3. The data access of the GET alone, in-process: the app's Prisma client against plain pg
 *    (bench/datalayer.ts).
 * 4. A CPU profile of the app (node --cpu-prof) under the GET load, summarized by package through
 *    the build's source maps.
 *
 * Prints the findings and writes bench/results/profile-<date>.json. Same database and clean-up
 * as bench/run.ts (cp_bench is dropped at the end). Options: --duration <s> (3) --reps <n> (3)
 * --skip-build. Takes about 5 minutes.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon, { type Options } from "autocannon";
import pg from "pg";
import { summarizeProfile } from "./cpuprofile.ts";
import { compareDataLayer } from "./datalayer.ts";
import {
  BENCH_URL,
  DB_NAME,
  ROOT,
  SEED_TENANTS,
  dropDatabase,
  ensureBuild,
  gitInfo,
  log,
  middleCursor,
  newToken,
  recreateDatabase,
  resetWrites,
  seed,
  startApp,
  startBaseline,
} from "./harness.ts";
import { startPgProxy, type PgProxy } from "./pgproxy.ts";
import { freePort, stopServer, type Server } from "./procs.ts";
import { sampleCpu, cpuBetween } from "./system.ts";
import { median } from "./report.ts";

const { values: flags } = parseArgs({
  options: {
    duration: { type: "string", default: "3" },
    reps: { type: "string", default: "3" },
    "skip-build": { type: "boolean", default: false },
  },
});
const DURATION = Number(flags.duration);
const REPS = Number(flags.reps);
const CONNECTIONS = 10;
const SERIAL_REQUESTS = 20;

interface Probe {
  name: string;
  status: number;
  request: (base: string) => Options;
}

function probes(token: string, cursor: string) {
  const auth = { authorization: `Bearer ${token}` };
  const unknown = { authorization: `Bearer cp_${"x".repeat(43)}` };
  let sequence = 0;
  const create = (base: string): Options => ({
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
            headers: { ...request.headers, "idempotency-key": `bench-profile-${sequence}` },
            body: JSON.stringify({ name: `bench-profile-${sequence}` }),
          };
        },
      },
    ],
  });
  return {
    app: [
      { name: "GET /api/nope → 404 (trivial Next route handler)", status: 404, request: (b) => ({ url: `${b}/api/nope` }) },
      { name: "GET /api/v1/openapi.json (cached document, no DB)", status: 200, request: (b) => ({ url: `${b}/api/v1/openapi.json` }) },
      {
        name: "GET /api/v1/nope → 404 (REST edge + router, no DB)",
        status: 404,
        request: (b) => ({ url: `${b}/api/v1/nope`, headers: auth }),
      },
      { name: "GET /api/v1/tenants no token → 401 (procedure, no DB)", status: 401, request: (b) => ({ url: `${b}/api/v1/tenants` }) },
      {
        name: "GET /api/v1/tenants unknown token → 401 (1 SQL)",
        status: 401,
        request: (b) => ({ url: `${b}/api/v1/tenants`, headers: unknown }),
      },
      { name: "GET /api/v1/tenants → 200", status: 200, request: (b) => ({ url: `${b}/api/v1/tenants`, headers: auth }) },
      {
        name: "GET /api/v1/tenants?cursor=… → 200",
        status: 200,
        request: (b) => ({ url: `${b}/api/v1/tenants?cursor=${cursor}`, headers: auth }),
      },
      { name: "POST /api/v1/tenants → 201", status: 201, request: create },
    ] satisfies Probe[],
    baseline: [
      { name: "GET /healthz (node:http, no DB)", status: 200, request: (b) => ({ url: `${b}/healthz` }) },
      {
        name: "GET /api/v1/tenants unknown token → 401 (1 SQL)",
        status: 401,
        request: (b) => ({ url: `${b}/api/v1/tenants`, headers: unknown }),
      },
      { name: "GET /api/v1/tenants → 200", status: 200, request: (b) => ({ url: `${b}/api/v1/tenants`, headers: auth }) },
      {
        name: "GET /api/v1/tenants?cursor=… → 200",
        status: 200,
        request: (b) => ({ url: `${b}/api/v1/tenants?cursor=${cursor}`, headers: auth }),
      },
      { name: "POST /api/v1/tenants → 201", status: 201, request: create },
    ] satisfies Probe[],
  };
}

/** Sends `options`' request once, the way autocannon would (first entry of `requests` if any). */
async function once(options: Options): Promise<number> {
  const first = options.requests?.[0];
  const request = first?.setupRequest ? first.setupRequest({ ...first }, {}) : (first ?? {});
  const url = new URL(request.path ?? "", options.url);
  const response = await fetch(first ? url : options.url, {
    method: request.method ?? "GET",
    headers: { ...options.headers, ...request.headers },
    body: typeof request.body === "string" ? request.body : request.body && new Uint8Array(request.body),
  });
  await response.arrayBuffer();
  return response.status;
}

async function statementsPerRequest(proxy: PgProxy, probe: Probe, base: string) {
  for (let i = 0; i < 3; i++) await once(probe.request(base));
  proxy.reset();
  for (let i = 0; i < SERIAL_REQUESTS; i++) {
    const status = await once(probe.request(base));
    if (status !== probe.status) throw new Error(`${probe.name}: expected ${probe.status}, got ${status}`);
  }
  const texts = [...proxy.counts.texts].map(([text, n]) => ({ text, perRequest: n / SERIAL_REQUESTS }));
  return {
    statements: proxy.counts.statements / SERIAL_REQUESTS,
    roundTrips: proxy.counts.roundTrips / SERIAL_REQUESTS,
    texts,
  };
}

async function layer(server: Server, db: pg.Client, probe: Probe) {
  const options = { ...probe.request(server.url), connections: CONNECTIONS, timeout: 10 };
  await autocannon({ ...options, duration: 1 });
  const pids = (await db.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1", [DB_NAME])).rows.map((r) => r.pid);
  const before = sampleCpu(server.child.pid!, pids);
  const result = await autocannon({ ...options, duration: DURATION });
  const after = sampleCpu(server.child.pid!, pids);
  const expected = result.statusCodeStats[String(probe.status)]?.count ?? 0;
  const total = Object.values(result.statusCodeStats).reduce((sum, s) => sum + s.count, 0);
  if (expected !== total || result.errors) {
    throw new Error(`${probe.name}: expected only ${probe.status}, got ${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors`);
  }
  const cpu = cpuBetween(before, after, total);
  return {
    name: probe.name,
    reqPerSec: total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    serverMsPerRequest: cpu.serverMsPerRequest,
    databaseMsPerRequest: cpu.databaseMsPerRequest,
    otherCores: cpu.otherCores,
    stealCores: cpu.stealCores,
  };
}

/**
 * The app's keyset predicate (server/db/keyset.ts: created_at < t OR (created_at = t AND id < i))
 * next to a row comparison ((created_at, id) < (t, i)), for the cursor the scenario uses.
 */
async function explainKeyset(db: pg.Client, cursor: string) {
  const [, at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [string, string, string];
  const shapes = {
    "app: created_at < $1 OR (created_at = $1 AND id < $2)": `created_at < $1 OR (created_at = $1 AND id < $2)`,
    "row comparison: (created_at, id) < ($1, $2)": `(created_at, id) < ($1, $2)`,
  };
  const out = [];
  for (const [shape, where] of Object.entries(shapes)) {
    const { rows } = await db.query<{ "QUERY PLAN": unknown }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT id, name, created_at FROM tenants WHERE ${where}
       ORDER BY created_at DESC, id DESC LIMIT 21`,
      [at, id],
    );
    const plan = (rows[0]!["QUERY PLAN"] as Array<{ Plan: PlanNode; "Execution Time": number }>)[0]!;
    const nodes: PlanNode[] = [];
    const walk = (n: PlanNode) => {
      nodes.push(n);
      n.Plans?.forEach(walk);
    };
    walk(plan.Plan);
    out.push({
      shape,
      rowsRemovedByFilter: nodes.reduce((sum, n) => sum + (n["Rows Removed by Filter"] ?? 0), 0),
      buffers: plan.Plan["Shared Hit Blocks"] + plan.Plan["Shared Read Blocks"],
      ms: plan["Execution Time"],
    });
  }
  return out;
}

interface PlanNode {
  Plans?: PlanNode[];
  "Rows Removed by Filter"?: number;
  "Shared Hit Blocks": number;
  "Shared Read Blocks": number;
}

async function main() {
  const started = new Date();
  const servers: Server[] = [];
  const proxies: PgProxy[] = [];
  let db: pg.Client | undefined;
  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await Promise.all(servers.map((s) => stopServer(s).catch(() => undefined)));
      await Promise.all(proxies.map((p) => p.close()));
      await db?.end().catch(() => undefined);
      await dropDatabase().catch((e: Error) => console.error(`could not drop ${DB_NAME}: ${e.message}`));
    })());
  let signalled = false; // Ctrl-C arrives twice (terminal + tsx relay): clean up once.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (signalled) return;
      signalled = true;
      void cleanup().finally(() => process.exit(130));
    });
  }
  const track = (server: Server) => servers.push(server);

  try {
    await recreateDatabase();
    const build = ensureBuild(flags["skip-build"]);
    const token = newToken();
    const pgUrl = new URL(BENCH_URL);
    const upstream = { host: pgUrl.hostname, port: Number(pgUrl.port || 5432) };
    const viaProxy = (proxy: PgProxy) => {
      const url = new URL(BENCH_URL);
      url.host = `127.0.0.1:${proxy.port}`;
      return url.toString();
    };
    const appProxy = await startPgProxy(upstream);
    const baseProxy = await startPgProxy(upstream);
    proxies.push(appProxy, baseProxy);

    const app = await startApp({ port: await freePort(), token, databaseUrl: viaProxy(appProxy), track });
    db = new pg.Client({ connectionString: BENCH_URL });
    await db.connect();
    await seed(db);
    const baseline = await startBaseline({ port: await freePort(), databaseUrl: viaProxy(baseProxy), track });
    const cursor = await middleCursor(app.url, token);
    const all = probes(token, cursor);
    log(`app ${app.url}, baseline ${baseline.url}, ${SEED_TENANTS} tenants`);

    // 0. The keyset page query: the app's predicate shape against a row comparison.
    const keyset = await explainKeyset(db, cursor);
    console.log("\nKeyset page from the middle cursor (EXPLAIN ANALYZE):");
    for (const k of keyset)
      console.log(`  ${k.shape.padEnd(58)} ${k.rowsRemovedByFilter} rows removed by filter, ${k.buffers} buffers, ${k.ms.toFixed(3)} ms`);

    // 1. Statements per request.
    const sql: Record<string, Record<string, Awaited<ReturnType<typeof statementsPerRequest>>>> = { app: {}, baseline: {} };
    for (const [target, server, proxy] of [
      ["app", app, appProxy],
      ["baseline", baseline, baseProxy],
    ] as const) {
      for (const probe of all[target]) {
        sql[target]![probe.name] = await statementsPerRequest(proxy, probe, server.url);
      }
    }
    await resetWrites(db);
    console.log("\nSQL per request (20 sequential requests each):");
    for (const [target, kinds] of Object.entries(sql)) {
      for (const [name, c] of Object.entries(kinds)) {
        console.log(`  ${target.padEnd(8)} ${name.padEnd(52)} ${c.statements} statements, ${c.roundTrips} round trips`);
        for (const t of c.texts) console.log(`      ${t.perRequest}× ${t.text}`);
      }
    }

    // 2. Layers under load: warm both servers up first, then every probe REPS times (median).
    for (const [target, server] of [
      ["app", app],
      ["baseline", baseline],
    ] as const) {
      const warm = all[target].find((p) => p.name === "GET /api/v1/tenants → 200")!;
      await autocannon({ ...warm.request(server.url), connections: CONNECTIONS, duration: 5 });
    }
    type LayerRun = Awaited<ReturnType<typeof layer>>;
    const runs: Record<string, LayerRun[][]> = { app: [], baseline: [] };
    for (let rep = 1; rep <= REPS; rep++) {
      for (const [target, server] of [
        ["app", app],
        ["baseline", baseline],
      ] as const) {
        for (const [i, probe] of all[target].entries()) {
          const m = await layer(server, db, probe);
          (runs[target]![i] ??= []).push(m);
          log(
            `${target.padEnd(8)} ${m.name.padEnd(55)} ${m.reqPerSec.toFixed(0).padStart(5)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  server ${m.serverMsPerRequest.toFixed(2)} CPU ms/req  (other load ${m.otherCores.toFixed(2)}, steal ${m.stealCores.toFixed(2)} cores)`,
          );
          if (probe.status === 201) await resetWrites(db);
        }
      }
    }
    const layers = Object.fromEntries(
      Object.entries(runs).map(([target, probeRuns]) => [
        target,
        probeRuns.map((r) => ({
          name: r[0]!.name,
          reqPerSec: median(r.map((x) => x.reqPerSec)),
          p99: median(r.map((x) => x.p99)),
          serverMsPerRequest: median(r.map((x) => x.serverMsPerRequest)),
          serverMsPerRequestMin: Math.min(...r.map((x) => x.serverMsPerRequest)),
          databaseMsPerRequest: median(r.map((x) => x.databaseMsPerRequest)),
          runs: r,
        })),
      ]),
    );
    console.log(`\nLayers (median of ${REPS}; server CPU ms per request, min in brackets):`);
    for (const [target, probesOut] of Object.entries(layers)) {
      for (const l of probesOut) {
        console.log(
          `  ${target.padEnd(8)} ${l.name.padEnd(55)} ${l.serverMsPerRequest.toFixed(2).padStart(6)} (${l.serverMsPerRequestMin.toFixed(2)}) CPU ms/req  ${l.reqPerSec.toFixed(0).padStart(5)} req/s  p99 ${l.p99} ms`,
        );
      }
    }

    // 4. The data layer alone, in this process: Prisma against plain pg.
    const dataLayer = await compareDataLayer(BENCH_URL, token);
    console.log("\nData access of GET /api/v1/tenants in-process, 10 concurrent loops (this process's CPU per operation):");
    for (const d of dataLayer)
      console.log(
        `  ${d.name.padEnd(45)} ${d.opsPerSec.toFixed(0).padStart(6)} ops/s  ${d.cpuMsPerOp.toFixed(3)} CPU ms/op  (${d.statementsPerOp} statements)`,
      );

    // 5. CPU profile of the app (straight to Postgres) under the GET load.
    await stopServer(app);
    servers.splice(servers.indexOf(app), 1);
    const profileDir = mkdtempSync(path.join(os.tmpdir(), "cp-bench-prof-"));
    const profiled = await startApp({
      port: await freePort(),
      token,
      nodeArgs: ["--cpu-prof", "--cpu-prof-dir", profileDir],
      track,
    });
    const getLoad = { ...all.app.find((p) => p.name === "GET /api/v1/tenants → 200")!.request(profiled.url), connections: CONNECTIONS };
    await autocannon({ ...getLoad, duration: 3 });
    const loadStart = performance.now();
    const profiledRun = await autocannon({ ...getLoad, duration: 8 });
    const loadEnd = performance.now();
    await stopServer(profiled);
    const exited = performance.now();
    servers.splice(servers.indexOf(profiled), 1);
    const profileFile = readdirSync(profileDir).find((f) => f.endsWith(".cpuprofile"));
    if (!profileFile) throw new Error(`no CPU profile written to ${profileDir}`);
    const summary = summarizeProfile(path.join(profileDir, profileFile), {
      fromEndUs: (exited - loadStart) * 1000,
      toEndUs: (exited - loadEnd) * 1000,
    });
    rmSync(profileDir, { recursive: true, force: true });
    console.log(
      `\nCPU profile of the app under GET /api/v1/tenants (${(profiledRun["2xx"] / profiledRun.duration).toFixed(0)} req/s while profiled), share of sampled time by owner of the running code:`,
    );
    for (const o of summary.byOwner.slice(0, 25)) console.log(`  ${(o.share * 100).toFixed(1).padStart(5)}%  ${o.owner}`);
    console.log("\nShare of sampled time with the owner's code anywhere on the synchronous stack (inclusive):");
    for (const o of summary.byOwnerInclusive.slice(0, 20)) console.log(`  ${(o.share * 100).toFixed(1).padStart(5)}%  ${o.owner}`);
    console.log("\nTop functions (self time):");
    for (const f of summary.byFunction.slice(0, 15)) console.log(`  ${(f.share * 100).toFixed(1).padStart(5)}%  ${f.fn}`);

    const resultsDir = path.join(ROOT, "bench/results");
    mkdirSync(resultsDir, { recursive: true });
    const file = path.join("bench/results", `profile-${started.toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(
      path.join(ROOT, file),
      `${JSON.stringify({ date: started.toISOString(), git: gitInfo(), build, keyset, sql, layers, dataLayer, cpuProfile: summary }, null, 2)}\n`,
    );
    log(`wrote ${file}`);
  } finally {
    await cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(`\nPROFILE FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
