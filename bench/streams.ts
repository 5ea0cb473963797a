/**
 * `npm run bench:streams`: audit log streams (issue 24, "Measured").
 *
 * 1. Drops and creates cp_bench_streams, starts the app on it (bench/api-server.ts: the same
 *    start-up as `npm start`, log-stream dispatcher included, without the console; it migrates),
 *    creates three tenants over REST and seeds `--events` audit events into one and `--cpu-events`
 *    into another (bench/audit-seed.ts, through the chain trigger).
 * 2. Backfill: a stream with `start_from: oldest` over the `--events` tenant to s3rver (a real
 *    S3-compatible server, in this process) and then to a discard S3 endpoint (200 to every PUT,
 *    body dropped: the upper bound), `--reps` times each, alternating; events/s = chain head ÷
 *    (cursor at the head − the create's answer). Beside each rep: `COPY (SELECT <the engine's
 *    columns> … same rows ORDER BY sequence) TO STDOUT` through psql, timed; ratio of medians.
 * 3. CPU per 1,000 events streamed per type: a backfill of the `--cpu-events` tenant to each of
 *    s3 (s3rver), datadog and splunk_hec (the test suite's intakes), https (a bare receiver) and
 *    syslog (rsyslogd over TLS); the app's CPU (and its Postgres backends') from /proc.
 * 4. Live lag: a stream started `now` on the third tenant to s3rver while `--live-rate` events/s
 *    are appended over REST (POST …/audit/batch every 50 ms) for `--live-seconds`; lag = arrival
 *    of the object holding an event − the append's answer naming it; p50, p99, max. The app runs
 *    the default LOG_STREAM_BATCH_WAIT_MS (5000) and LOG_STREAM_POLL_MS (1000) unless
 *    `--batch-wait-ms` is given.
 * Every stream's receiver must hold at least every event up to the head (checked); the numbers
 * must be finite and positive (checked).
 *
 * Options: --events <n> (1000000) --cpu-events <n> (100000) --reps <n> (3) --live-rate <n> (2000)
 *          --live-seconds <s> (30) --types <list> (s3,datadog,splunk_hec,https,syslog)
 *          --batch-wait-ms <ms> (app default) --keep-db --markdown (write docs/benchmarks/streams.md)
 *          --cpu-prof (the app under node --cpu-prof, profile in bench/results/streams-cpuprofile/)
 *          --smoke (5,000 + 2,000 events, 1 rep, 500 events/s for 3 s: what `npm test` runs; the
 *          checks hold, the numbers mean nothing)
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import pg from "pg";
import { ADMIN_URL, gitInfo, log, newToken, startApp, withClient, writeRunSection } from "./harness.ts";
import { benchFlags, refuse, RESULTS_DIR, runBench } from "./cli.ts";
import { freePort, stopServer, type Server } from "./procs.ts";
import { createPastPartitions, seedTenant } from "./audit-seed.ts";
import { machine } from "./system.ts";
import { sinkFor } from "../server/log-streams/sinks/index.ts";
import type { LogStreamType } from "../server/log-streams/schemas.ts";
import { RECEIVERS, type BenchReceiver, type ReceiverType } from "./streams-receivers.ts";
import { backfill, copyRows, liveLag, type Api, type BackfillRun } from "./streams-measure.ts";
import { streamsMarkdown, summarize, type StreamsReport } from "./streams-report.ts";

const flags = benchFlags(
  {
    events: { type: "string", default: "1000000" },
    "cpu-events": { type: "string", default: "100000" },
    reps: { type: "string", default: "3" },
    "live-rate": { type: "string", default: "2000" },
    "live-seconds": { type: "string", default: "30" },
    types: { type: "string", default: "s3,datadog,splunk_hec,https,syslog" },
    "batch-wait-ms": { type: "string" },
    "keep-db": { type: "boolean" },
    "cpu-prof": { type: "boolean" },
  },
  { events: "5000", "cpu-events": "2000", reps: "1", "live-rate": "500", "live-seconds": "3" },
);
const EVENTS = Number(flags.events);
const CPU_EVENTS = Number(flags["cpu-events"]);
const REPS = Number(flags.reps);
const LIVE_RATE = Number(flags["live-rate"]);
const LIVE_SECONDS = Number(flags["live-seconds"]);
const TYPES = flags.types.split(",").map((t) => t.trim()) as ReceiverType[];
for (const type of TYPES) if (!(type in RECEIVERS) || type === "s3-discard") refuse(`--types: unknown type ${type}`);
for (const [name, value] of [
  ["events", EVENTS],
  ["cpu-events", CPU_EVENTS],
  ["reps", REPS],
  ["live-rate", LIVE_RATE],
] as const)
  if (!Number.isInteger(value) || value < 1) refuse(`--${name}: a whole number above 0, not ${value}`);
for (const type of new Set(["s3", ...TYPES]))
  try {
    sinkFor(type as LogStreamType);
  } catch {
    refuse(`this build has no sink for log streams of type ${type}`);
  }
const DB = "cp_bench_streams";
const DB_URL = Object.assign(new URL(ADMIN_URL), { pathname: `/${DB}` }).toString();
const BACKFILL_TIMEOUT_MS = Math.max(120_000, EVENTS / 2);

let app: Server | null = null;
const open: BenchReceiver[] = [];
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void Promise.all([app && stopServer(app), ...open.map((r) => r.close())]).finally(() => process.exit(1));
  });
}

async function withReceiver<T>(type: ReceiverType, fn: (receiver: BenchReceiver) => Promise<T>): Promise<T> {
  const receiver = await RECEIVERS[type]();
  open.push(receiver);
  try {
    return await fn(receiver);
  } finally {
    open.splice(open.indexOf(receiver), 1);
    await receiver.close();
  }
}

async function seed(tenants: { backfill: string; cpu: string }): Promise<number> {
  const pool = new pg.Pool({ connectionString: DB_URL, max: 2 });
  const started = Date.now();
  try {
    await createPastPartitions(pool, 13);
    await Promise.all([seedTenant(pool, tenants.backfill, EVENTS), seedTenant(pool, tenants.cpu, CPU_EVENTS)]);
    await pool.query("VACUUM ANALYZE audit_events");
  } finally {
    await pool.end();
  }
  return (Date.now() - started) / 1000;
}

async function main(): Promise<void> {
  const postgres = await withClient(ADMIN_URL, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${DB}`);
    return (await client.query<{ version: string }>("SELECT version()")).rows[0]!.version;
  });
  const loadBefore = loadavg();
  const startedAt = new Date();
  const token = newToken();
  const password = randomBytes(12).toString("base64url");
  const appEnv: Record<string, string> = { BOOTSTRAP_ADMIN_PASSWORD: password };
  if (flags["batch-wait-ms"] !== undefined) appEnv.LOG_STREAM_BATCH_WAIT_MS = flags["batch-wait-ms"];
  const port = await freePort();
  log(`starting the app on :${port} (api-server: REST + the log-stream dispatcher)`);
  const nodeArgs = flags["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${path.join(RESULTS_DIR, "streams-cpuprofile")}`] : [];
  app = await startApp({ port, token, databaseUrl: DB_URL, apiOnly: true, env: appEnv, nodeArgs, track: (s) => (app = s) });
  const api: Api = { url: app.url, token, password, pid: app.child.pid! };
  const db = new pg.Client({ connectionString: DB_URL });
  await db.connect();
  try {
    // Made in SQL, as bench/audit-seed.ts makes its own: a tenant made over REST starts its chain
    // with `tenant.created` now, and the seed's events (a year back) could not follow it.
    const made = async (name: string) =>
      (await db.query<{ id: string }>("INSERT INTO tenants (name) VALUES ($1) RETURNING id", [name])).rows[0]!.id;
    const tenants = {
      backfill: await made("bench-streams backfill"),
      cpu: await made("bench-streams cpu"),
      live: await made("bench-streams live"),
    };
    log(`seeding ${EVENTS.toLocaleString("en")} + ${CPU_EVENTS.toLocaleString("en")} events …`);
    const seedSeconds = await seed(tenants);
    log(`seeded in ${seedSeconds.toFixed(0)} s`);

    const backfills: BackfillRun[] = [];
    const copies: { seconds: number; eventsPerSecond: number }[] = [];
    for (let rep = 1; rep <= REPS; rep++) {
      for (const type of ["s3", "s3-discard"] as const) {
        const run = await withReceiver(type, (r) => backfill(api, db, tenants.backfill, r, EVENTS, BACKFILL_TIMEOUT_MS));
        backfills.push(run);
        log(`backfill ${rep}/${REPS} → ${type}: ${run.events} events in ${run.seconds.toFixed(1)} s, ${run.eventsPerSecond.toFixed(0)}/s`);
      }
      const copy = copyRows(DB_URL, tenants.backfill, backfills.at(-1)!.events);
      copies.push(copy);
      log(`COPY of the same rows: ${copy.seconds.toFixed(2)} s, ${copy.eventsPerSecond.toFixed(0)}/s`);
    }

    const perType: BackfillRun[] = [];
    for (const type of TYPES) {
      const run = await withReceiver(type, (r) => backfill(api, db, tenants.cpu, r, CPU_EVENTS, BACKFILL_TIMEOUT_MS));
      perType.push(run);
      log(`${type}: ${run.appCpuMs.toFixed(1)} app CPU ms per 1,000 events (${run.eventsPerSecond.toFixed(0)} events/s)`);
    }

    log(`live: ${LIVE_RATE} events/s for ${LIVE_SECONDS} s to s3rver …`);
    const live = await withReceiver("s3", (r) => liveLag(api, tenants.live, r, LIVE_RATE, LIVE_SECONDS));
    log(`live lag p50 ${live.p50Ms} ms, p99 ${live.p99Ms} ms, max ${live.maxMs} ms (${live.appendedPerSecond.toFixed(0)} appended/s)`);

    const report: StreamsReport = {
      startedAt: startedAt.toISOString(),
      commit: gitInfo().commit,
      machine: machine(postgres),
      load: { before: loadBefore, after: loadavg() },
      command: `npm run bench:streams -- ${process.argv.slice(2).join(" ")}`.trim(),
      batchWaitMs: flags["batch-wait-ms"] === undefined ? "default (5000)" : flags["batch-wait-ms"],
      seedSeconds,
      backfills,
      copies,
      perType,
      live,
    };
    const summary = summarize(report);
    for (const [name, value] of Object.entries(summary))
      if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} was not computed (${value})`);
    mkdirSync(RESULTS_DIR, { recursive: true });
    const file = path.join(RESULTS_DIR, `streams-${startedAt.toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, JSON.stringify(report, null, 2));
    const markdown = streamsMarkdown(report, path.relative(path.resolve(RESULTS_DIR, "../.."), file));
    console.log(`\n${markdown}`);
    if (flags.markdown) writeRunSection("streams.md", markdown, "## Log streams");
  } finally {
    await db.end();
    await stopServer(app);
    app = null;
    if (!flags["keep-db"]) await withClient(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`));
  }
}

runBench("bench:streams", main);
