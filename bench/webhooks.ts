/**
 * `npm run bench:webhooks`: webhook delivery throughput and first-attempt latency (issue 6).
 *
 * 1. Drops and creates cp_bench_webhooks; starts the app (scripts/serve.ts, production build) with
 *    OUTBOUND_ALLOW_PRIVATE=true and INTERNAL_CRON=on; one receiver on 127.0.0.1
 *    (bench/webhooks-receiver.ts); one tenant and `--webhooks` webhooks subscribed to `*`, all
 *    created over REST. The webhook.created deliveries of the set-up are drained first.
 * 2. For one instance, then two (a second app process on the same database, both dispatching;
 *    the appends alternate between them), `--reps` times:
 *    - backlog: `--events` events appended (POST /api/v1/tenants/{id}/audit) at `--concurrency`,
 *      each fanned out to every webhook by the app's outbox, while a bench-only trigger holds
 *      their deliveries back (next_attempt_at a day ahead); then all are released at once (one
 *      UPDATE + pg_notify, as a commit would) and deliveries/s = deliveries / (last receipt -
 *      release): the dispatchers' capacity, not bounded by how fast events can be appended.
 *    - paced: `--paced-events` events at the target rate (500 deliveries/s per instance, i.e.
 *      instances x 500 / webhooks events/s): first-attempt latency at the target load.
 *    Latency = receipt time at the receiver - the event's created_at (the audit row's timestamp,
 *    the start of the append's transaction), first arrivals only.
 * 3. Every (event, webhook) must arrive exactly once, and every delivery row must be `succeeded`
 *    after exactly one attempt.
 *
 * Options: --events <n> (10000) --webhooks <n> (20) --concurrency <n> (20) --paced-events <n>
 *          (1000) --reps <n> (2) --instances 1,2 --skip-build --keep-db
 *          --markdown (write the "Webhooks" section of docs/benchmarks/webhooks.md)
 *          --smoke (200 events, 3 webhooks, 60 paced, 1 rep: what `npm test` runs; the checks hold, the numbers mean nothing)
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ADMIN_URL, ROOT, ensureBuild, gitInfo, log, newToken, startApp, withClient, writeRunSection } from "./harness.ts";
import { benchFlags, runBench } from "./cli.ts";
import { freePort, stopServer, type Server } from "./procs.ts";
import { machine } from "./system.ts";
import { startBenchReceiver, type BenchReceiver } from "./webhooks-receiver.ts";
import { webhooksMarkdown, type WebhooksReport, type WebhooksRun } from "./webhooks-report.ts";

const flags = benchFlags(
  {
    events: { type: "string", default: "10000" },
    webhooks: { type: "string", default: "20" },
    concurrency: { type: "string", default: "20" },
    "paced-events": { type: "string", default: "1000" },
    reps: { type: "string", default: "2" },
    instances: { type: "string", default: "1,2" },
    "skip-build": { type: "boolean" },
    "keep-db": { type: "boolean" },
  },
  { events: "200", webhooks: "3", concurrency: "10", "paced-events": "60", reps: "1" },
);
const EVENTS = Number(flags.events);
const WEBHOOKS = Number(flags.webhooks);
const CONCURRENCY = Number(flags.concurrency);
const PACED_EVENTS = Number(flags["paced-events"]);
const REPS = Number(flags.reps);
const INSTANCES = flags.instances.split(",").map(Number);
const TARGET_PER_INSTANCE = 500;
const DB = "cp_bench_webhooks";
const DB_URL = Object.assign(new URL(ADMIN_URL), { pathname: `/${DB}` }).toString();

async function post(url: string, token: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status !== 201) throw new Error(`POST ${url}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const appendBody = (run: string, n: number) => ({
  event_type: "bench.webhooks",
  actor: { id: "bench", email: "bench@example.com" },
  target: { type: "bench", id: String(n) },
  details: { run, n },
});

/** `count` appends at `concurrency`, alternating over `apps`; optionally paced to `perSecond`. */
async function appendEvents(
  apps: Server[],
  token: string,
  tenantId: string,
  run: string,
  count: number,
  concurrency: number,
  perSecond?: number,
) {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let n = next++; n < count; n = next++) {
      if (perSecond) {
        const due = started + (n * 1000) / perSecond;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      await post(`${apps[n % apps.length]!.url}/api/v1/tenants/${tenantId}/audit`, token, appendBody(run, n));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { seconds: (performance.now() - started) / 1000 };
}

async function waitForDeliveries(receiver: BenchReceiver, run: string, expected: number, idleTimeoutMs = 60_000): Promise<void> {
  let last = -1;
  let lastChange = Date.now();
  while (receiver.received(run) < expected) {
    const now = receiver.received(run);
    if (now !== last) [last, lastChange] = [now, Date.now()];
    if (Date.now() - lastChange > idleTimeoutMs)
      throw new Error(`${run}: ${now} of ${expected} deliveries, none for ${idleTimeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

function summarize(receiver: BenchReceiver, run: string, expected: number) {
  const record = receiver.runs.get(run)!;
  const duplicates = [...record.counts.values()].filter((c) => c !== 1).length;
  if (record.counts.size !== expected || duplicates)
    throw new Error(`${run}: ${record.counts.size} of ${expected} received, ${duplicates} more than once`);
  const sorted = [...record.latencies].sort((a, b) => a - b);
  receiver.runs.set(run, {
    counts: new Map([["checked", record.counts.size]]),
    latencies: [],
    firstAt: record.firstAt,
    lastAt: record.lastAt,
  });
  return {
    deliveries: expected,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1)!,
    firstAt: record.firstAt,
    lastAt: record.lastAt,
  };
}

/** Bench-only: while bench_hold has a row, new bench deliveries are due a day later. */
const HOLD = `CREATE TABLE bench_hold (on_hold boolean);
  CREATE FUNCTION bench_hold() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.event_type = 'bench.webhooks' AND EXISTS (SELECT 1 FROM bench_hold) THEN NEW.next_attempt_at := now() + interval '1 day'; END IF;
    RETURN NEW;
  END $$;
  CREATE TRIGGER bench_hold BEFORE INSERT ON webhook_deliveries FOR EACH ROW EXECUTE FUNCTION bench_hold();`;

/** Makes every held delivery due now and wakes the dispatchers; returns when that committed. */
async function release(): Promise<number> {
  return withClient(DB_URL, async (c) => {
    await c.query("BEGIN");
    await c.query("DELETE FROM bench_hold");
    await c.query("UPDATE webhook_deliveries SET next_attempt_at = now() WHERE status = 'pending' AND next_attempt_at > now()");
    await c.query("SELECT pg_notify('webhook_deliveries_due', '')");
    await c.query("COMMIT");
    return Date.now();
  });
}

/** Waits until nothing is pending or failed (the set-up's webhook.created deliveries). */
async function drain(timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await withClient(DB_URL, (c) =>
      c.query("SELECT count(*)::int AS n FROM webhook_deliveries WHERE status IN ('pending', 'failed')"),
    );
    if (rows[0].n === 0) return;
    if (Date.now() > deadline) throw new Error(`${rows[0].n} deliveries still due after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function main(): Promise<void> {
  const servers: Server[] = [];
  const started = new Date();
  const version = await withClient(ADMIN_URL, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${DB}`);
    return (await c.query<{ version: string }>("SELECT version()")).rows[0]!.version;
  });
  const secrets = Array.from({ length: WEBHOOKS }, () => `whsec_${randomBytes(32).toString("base64")}`);
  const receiver = await startBenchReceiver(secrets);
  try {
    const build = ensureBuild(flags["skip-build"]);
    const token = newToken();
    // The periodic jobs on (retries are re-queued by them); everything else as bench/settings.ts says.
    const env = { INTERNAL_CRON: "on", ENCRYPTION_KEY: randomBytes(32).toString("base64") };
    const start = async () => {
      const app = await startApp({ port: await freePort(), token, databaseUrl: DB_URL, env, track: (s) => servers.push(s) });
      app.name = `app${servers.length}`;
      return app;
    };
    const apps = [await start()];
    const tenant = await post(`${apps[0]!.url}/api/v1/tenants`, token, { name: "bench-webhooks" });
    const tenantId = String(tenant.id);
    for (const [i, secret] of secrets.entries()) {
      await post(`${apps[0]!.url}/api/v1/tenants/${tenantId}/webhooks`, token, { url: `${receiver.url}/hook/${i}`, events: ["*"], secret });
    }
    await drain();
    await withClient(DB_URL, (c) => c.query(HOLD));
    log(`${WEBHOOKS} webhooks on ${receiver.url}; set-up deliveries drained (${receiver.other})`);

    const runs: WebhooksRun[] = [];
    for (const instances of INSTANCES) {
      while (apps.length < instances) apps.push(await start());
      const active = apps.slice(0, instances);
      for (let rep = 1; rep <= REPS; rep++) {
        const load = os.loadavg()[0]!;
        const backlog = `backlog-${instances}-${rep}`;
        await withClient(DB_URL, (c) => c.query("INSERT INTO bench_hold VALUES (true)"));
        const appended = await appendEvents(active, token, tenantId, backlog, EVENTS, CONCURRENCY);
        const releasedAt = await release();
        await waitForDeliveries(receiver, backlog, EVENTS * WEBHOOKS);
        const b = summarize(receiver, backlog, EVENTS * WEBHOOKS);
        const rate = b.deliveries / ((b.lastAt - Math.min(b.firstAt, releasedAt)) / 1000);
        log(`${backlog}: ${rate.toFixed(0)} deliveries/s (appended at ${(EVENTS / appended.seconds).toFixed(0)} events/s beforehand)`);

        const paced = `paced-${instances}-${rep}`;
        const perSecond = (instances * TARGET_PER_INSTANCE) / WEBHOOKS;
        await appendEvents(active, token, tenantId, paced, PACED_EVENTS, CONCURRENCY, perSecond);
        await waitForDeliveries(receiver, paced, PACED_EVENTS * WEBHOOKS);
        const p = summarize(receiver, paced, PACED_EVENTS * WEBHOOKS);
        log(
          `${paced}: ${perSecond} events/s = ${perSecond * WEBHOOKS} deliveries/s offered, latency p50 ${p.p50} p99 ${p.p99} max ${p.max} ms`,
        );
        runs.push({
          instances,
          rep,
          load1: load,
          deliveriesPerSecond: rate,
          appendsPerSecond: EVENTS / appended.seconds,
          backlogSeconds: (b.lastAt - Math.min(b.firstAt, releasedAt)) / 1000,
          paced: { offeredPerSecond: perSecond * WEBHOOKS, p50: p.p50, p99: p.p99, max: p.max },
        });
      }
    }

    // Every delivery row of the bench events: succeeded, after exactly one attempt. The receiver
    // counts a delivery when it answers; the server records the outcome just after, so the last
    // rows may still read pending for a moment on a loaded machine (up to 15 s allowed).
    const readRows = () =>
      withClient(DB_URL, (c) =>
        c.query<{ status: string; attempts: number; n: number }>(
          `SELECT status, attempt_count AS attempts, count(*)::int AS n FROM webhook_deliveries WHERE event_type = 'bench.webhooks' GROUP BY 1, 2`,
        ),
      );
    let check = await readRows();
    for (const deadline = Date.now() + 15_000; check.rows.some((r) => r.status === "pending") && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      check = await readRows();
    }
    const expected = INSTANCES.length * REPS * (EVENTS + PACED_EVENTS) * WEBHOOKS;
    const good = check.rows.find((r) => r.status === "succeeded" && r.attempts === 1)?.n ?? 0;
    if (check.rows.length !== 1 || good !== expected)
      throw new Error(`delivery rows: ${JSON.stringify(check.rows)}, expected ${expected} succeeded once`);
    if (receiver.signaturesBad)
      throw new Error(`${receiver.signaturesBad} of ${receiver.signaturesChecked} sampled signatures did not verify`);

    const report: WebhooksReport = {
      date: started.toISOString(),
      machine: machine(version),
      build,
      commit: gitInfo().commit,
      events: EVENTS,
      pacedEvents: PACED_EVENTS,
      webhooks: WEBHOOKS,
      concurrency: CONCURRENCY,
      reps: REPS,
      runs,
      verifiedDeliveries: good,
      signaturesChecked: receiver.signaturesChecked,
      uptime: os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(", "),
    };
    mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
    const file = path.join(ROOT, `bench/results/webhooks-${started.toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, JSON.stringify(report, null, 2));
    const section = webhooksMarkdown(report, path.relative(ROOT, file));
    console.log(`\n${section}`);
    if (flags.markdown) writeRunSection("webhooks.md", section, "## Webhooks");
  } finally {
    await Promise.all(servers.map((s) => stopServer(s).catch(() => undefined)));
    await receiver.close();
    if (!flags["keep-db"]) await withClient(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)).catch(() => undefined);
  }
}

runBench("bench:webhooks", main);
