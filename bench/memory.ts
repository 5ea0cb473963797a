/**
 * `npm run bench:memory`: how much memory one instance holds (issue 27), for the server as
 * `npm start` ran it before (the tsx CLI, which runs the server in a child node that transpiles
 * TypeScript at run time) and as it runs now (plain node on dist/server, scripts/build-server.mjs),
 * one after the other in the same run on the same database and build.
 *
 * For each: a fresh cp_bench_memory database, the app (production Next build, INTERNAL_CRON on, a
 * webhook to a local receiver), then RSS (/proc, the whole process tree and the server alone) and
 * V8 heap (/api/metrics):
 *   idle       2 s after the server is ready, before any request: start-up's garbage is still in
 *              the heap and its young generation still at the size start-up grew it to;
 *   settled    `--settle-seconds` after ready, still without a request: V8's memory reducer has run
 *              (it shrinks the young generation once the process is idle), what an idle instance holds;
 *   10k        after `--requests` mixed requests (bench/memory-load.ts), with the peak RSS under it;
 *   round 1/2  after each of two equal rounds of `--round-seconds` of the same mix: "flat" means no
 *              growth from the first to the second. A heap snapshot after each round (V8 collects
 *              garbage first) gives the heap that is live, and their difference per constructor
 *              names what grew.
 *
 * Options: --requests (10000) --round-seconds (20) --settle-seconds (30) --concurrency (8) --variants tsx,compiled (or
 *          compiled-maps: with --enable-source-maps)
 *          --skip-build --skip-snapshots (no third round) --keep-snapshots (in bench/results, to open
 *          in DevTools) --markdown (the "Memory" section of docs/benchmarks/memory.md)
 *          --smoke (300 requests, 3 s rounds, the compiled server only, no snapshots: what `npm test` runs)
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ADMIN_URL, DIST_DIR, ROOT, ensureBuild, gitInfo, log, newToken, withClient, writeRunSection } from "./harness.ts";
import { benchFlags, refuse, runBench, RESULTS_DIR } from "./cli.ts";
import { freePort, startServer, stopServer, waitReady, type Server } from "./procs.ts";
import { settingsFor } from "./settings.ts";
import { cpuBetween, machine, sampleCpu } from "./system.ts";
import { startBenchReceiver } from "./webhooks-receiver.ts";
import {
  commandLine,
  heapGrowth,
  heapStats,
  processTree,
  residentMiB,
  summarizeSnapshot,
  summaryMiB,
  takeSnapshot,
} from "./memory-heap.ts";
import { mixedLoad, signInCookie, type Fixture } from "./memory-load.ts";
import { memoryMarkdown, type Measure, type VariantRun } from "./memory-report.ts";
import { buildServer, serverBuildIsStale } from "../scripts/build-server.mjs";

const flags = benchFlags(
  {
    requests: { type: "string", default: "10000" },
    "round-seconds": { type: "string", default: "20" },
    "settle-seconds": { type: "string", default: "30" },
    concurrency: { type: "string", default: "8" },
    variants: { type: "string", default: "tsx,compiled" },
    "skip-build": { type: "boolean" },
    "skip-snapshots": { type: "boolean" },
    "keep-snapshots": { type: "boolean" },
  },
  { requests: "300", "round-seconds": "3", "settle-seconds": "3", variants: "compiled", "skip-snapshots": true },
);
const VARIANTS = flags.variants.split(",");
if (VARIANTS.some((v) => !["tsx", "compiled", "compiled-maps"].includes(v)))
  refuse(`--variants takes tsx, compiled and compiled-maps, not ${flags.variants}`);
const DB = "cp_bench_memory";
const DB_URL = Object.assign(new URL(ADMIN_URL), { pathname: `/${DB}` }).toString();
/** Where the compiled server is built for the bench (beside, not over, the one `npm start` runs). */
const SERVER_OUTDIR = `${DIST_DIR}-server`;
const OPERATOR = { email: "bench-operator@example.com", password: randomBytes(12).toString("base64url") };

async function startVariant(variant: string, port: number, token: string, metricsToken: string, diagnostics: string): Promise<Server> {
  const url = `http://127.0.0.1:${port}`;
  // The old `npm start` minus npm: the tsx CLI, which runs the server in a child node with its loader.
  const compiled = path.join(SERVER_OUTDIR, "serve.js");
  const [command, args] = {
    tsx: [path.join(ROOT, "node_modules/.bin/tsx"), ["--import", "./scripts/server-only.mjs", "scripts/serve.ts"]],
    compiled: [process.execPath, [compiled]],
    // What `--enable-source-maps` costs: Node reads and keeps the map of every module that names one.
    "compiled-maps": [process.execPath, ["--enable-source-maps", compiled]],
  }[variant] as [string, string[]];
  const server = startServer(variant, url, command, args, {
    ...process.env,
    // BENCH_NODE_OPTIONS: V8 or Node flags to measure (e.g. a heap limit), said in the report.
    NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${diagnostics} ${process.env.BENCH_NODE_OPTIONS ?? ""}`.trim(),
    NODE_ENV: "production",
    PORT: String(port),
    NEXT_DIST_DIR: DIST_DIR,
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: DB_URL,
    NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    APP_URL: url,
    BOOTSTRAP_ADMIN_EMAIL: OPERATOR.email,
    BOOTSTRAP_ADMIN_PASSWORD: OPERATOR.password,
    BOOTSTRAP_TOKEN: token,
    METRICS_TOKEN: metricsToken,
    ...settingsFor(`app (${variant})`, { INTERNAL_CRON: "on" }),
  });
  await waitReady(server, `${url}/api/health/ready`).catch(async (error: unknown) => {
    await stopServer(server);
    throw error;
  });
  return server;
}

async function post(url: string, token: string, body: unknown): Promise<{ id: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string };
}

async function runVariant(variant: string, receiverUrl: string, diagnostics: string, withSnapshots: boolean): Promise<VariantRun> {
  let liveMiB: [number, number] | undefined;
  await withClient(ADMIN_URL, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${DB}`);
  });
  const token = newToken();
  const metricsToken = randomBytes(24).toString("base64url");
  const startedAt = Date.now();
  const server = await startVariant(variant, await freePort(), token, metricsToken, diagnostics);
  const readySeconds = (Date.now() - startedAt) / 1000;
  try {
    const tree = () => processTree(server.child.pid!);
    // The server is the process running serve.ts/serve.js: the tsx CLI's child, or the root itself.
    const pid = tree().find((p) => /serve\.(ts|js)/.test(commandLine(p)) && !/\/tsx /.test(commandLine(p)))!;
    /** Runs `load` and answers it with the server's CPU ms per request meanwhile. */
    const timed = async (load: () => ReturnType<typeof mixedLoad>) => {
      const before = sampleCpu(pid, []);
      const result = await load();
      return { ...result, cpuMs: cpuBetween(before, sampleCpu(pid, []), result.requests).serverMsPerRequest };
    };
    const measure = async (label: string, peak = 0, cpuMs?: number): Promise<Measure> => {
      const pids = tree();
      const heap = await heapStats(server.url, metricsToken);
      const own = residentMiB(pid);
      const treeRss = pids.reduce((sum, p) => sum + residentMiB(p).rss, 0);
      const m = { label, rss: own.rss, treeRss, processes: pids.length, peakRss: Math.max(peak, own.rss), cpuMs, ...heap };
      log(
        `${variant} ${label}: RSS ${m.rss.toFixed(0)} MiB (tree ${m.treeRss.toFixed(0)}, ${m.processes} processes), heap ${m.used.toFixed(0)}/${m.total.toFixed(0)} MiB${cpuMs === undefined ? "" : `, ${cpuMs.toFixed(2)} CPU ms per request`}`,
      );
      return m;
    };
    const settle = () => new Promise((resolve) => setTimeout(resolve, 2_000));
    await settle();
    const idle = await measure("idle");
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, startedAt + readySeconds * 1000 + Number(flags["settle-seconds"]) * 1000 - Date.now())),
    );
    const idleSettled = await measure(`idle, ${flags["settle-seconds"]} s after ready`);

    await withClient(DB_URL, (c) =>
      c.query(
        `INSERT INTO tenants (name, created_at) SELECT 'Tenant ' || g, now() - make_interval(secs => g * 300) FROM generate_series(1, 2000) g`,
      ),
    );
    const tenant = await post(`${server.url}/api/v1/tenants`, token, { name: "bench-memory" });
    await post(`${server.url}/api/v1/tenants/${tenant.id}/webhooks`, token, {
      url: `${receiverUrl}/hook/0`,
      events: ["*"],
      secret: `whsec_${randomBytes(32).toString("base64")}`,
    });
    const fixture: Fixture = {
      url: server.url,
      token,
      tenantId: tenant.id,
      cookie: await signInCookie(server.url, OPERATOR.email, OPERATOR.password),
    };
    let peak = 0;
    const onTick = () => (peak = Math.max(peak, residentMiB(pid).rss));
    const concurrency = Number(flags.concurrency);

    const warm = await timed(() => mixedLoad(fixture, { concurrency, count: Number(flags.requests), onTick }));
    log(`${variant}: ${warm.requests} requests in ${warm.seconds.toFixed(0)} s`);
    await settle();
    const afterRequests = await measure(`after ${warm.requests} requests`, peak, warm.cpuMs);

    const rounds: Measure[] = [];
    for (const round of [1, 2]) {
      peak = 0;
      const load = await timed(() => mixedLoad(fixture, { concurrency, seconds: Number(flags["round-seconds"]), onTick }));
      await settle();
      rounds.push(await measure(`round ${round} (${load.requests} requests)`, peak, load.cpuMs));
    }
    // Snapshots last: writing one takes the process's RSS up by about the heap's size for good.
    let growth: VariantRun["growth"] = [];
    if (withSnapshots) {
      const ping = () => heapStats(server.url, metricsToken);
      const before = summarizeSnapshot(await takeSnapshot(pid, diagnostics, ping), flags["keep-snapshots"]);
      const load = await mixedLoad(fixture, { concurrency, seconds: Number(flags["round-seconds"]), onTick });
      await settle();
      const after = summarizeSnapshot(await takeSnapshot(pid, diagnostics, ping), flags["keep-snapshots"]);
      growth = heapGrowth(before, after);
      liveMiB = [summaryMiB(before), summaryMiB(after)];
      log(`${variant}: live heap ${liveMiB.map((v) => v.toFixed(1)).join(" → ")} MiB over a third round (${load.requests} requests)`);
    }
    return { variant, readySeconds, idle, idleSettled, afterRequests, rounds, growth, liveMiB };
  } finally {
    await stopServer(server, 15_000);
  }
}

async function main(): Promise<void> {
  const started = new Date();
  const version = await withClient(ADMIN_URL, async (c) => (await c.query<{ version: string }>("SELECT version()")).rows[0]!.version);
  const build = ensureBuild(flags["skip-build"]);
  if (serverBuildIsStale(SERVER_OUTDIR))
    log(`compiled the server into ${SERVER_OUTDIR} in ${(await buildServer(SERVER_OUTDIR)).toFixed(1)} s`);
  const diagnostics = path.join(RESULTS_DIR, `memory-${process.pid}`);
  mkdirSync(diagnostics, { recursive: true });
  const receiver = await startBenchReceiver([], 1_000_000);
  const runs: VariantRun[] = [];
  try {
    // The heap snapshots (a third round between two of them) for the last variant only: they take a minute.
    for (const variant of VARIANTS)
      runs.push(await runVariant(variant, receiver.url, diagnostics, !flags["skip-snapshots"] && variant === VARIANTS.at(-1)));
  } finally {
    await receiver.close();
    if (flags["keep-snapshots"]) log(`heap snapshots kept in ${path.relative(ROOT, diagnostics)}`);
    else rmSync(diagnostics, { recursive: true, force: true });
    await withClient(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)).catch(() => undefined);
  }
  const report = {
    date: started.toISOString(),
    machine: machine(version),
    build,
    commit: gitInfo().commit,
    requests: Number(flags.requests),
    roundSeconds: Number(flags["round-seconds"]),
    settleSeconds: Number(flags["settle-seconds"]),
    concurrency: Number(flags.concurrency),
    nodeOptions: process.env.BENCH_NODE_OPTIONS,
    load: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(", "),
    runs,
  };
  const file = path.join(RESULTS_DIR, `memory-${started.toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify(report, null, 2));
  const section = memoryMarkdown(report, path.relative(ROOT, file));
  console.log(`\n${section}`);
  if (flags.markdown) writeRunSection("memory.md", section, "## Memory");
}

runBench("bench:memory", main);
