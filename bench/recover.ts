/**
 * `npm run bench:recover [-- --deliveries 10000 --reps 3]`: recover of N failed deliveries (issue 25).
 *
 * Self-contained, in one process (no build, no app server): drops and creates cp_bench_recover,
 * migrates it, makes one tenant and one webhook pointing at a receiver on 127.0.0.1 that answers
 * 200 at once, and runs this process's webhook dispatcher (the production one, 50 senders).
 * Each rep:
 *   - seeds N deliveries of N distinct events that ended `exhausted` (one SQL statement),
 *   - recover: startRecover (the REST operation's service: picks and marks them) and the job that
 *     queues the copies, timed to the last copy committed ("queue"); then until the receiver has
 *     each event once ("deliver", from the end of the queueing);
 *   - baseline, same run: N fresh pending deliveries inserted at once (as the outbox writes them),
 *     timed from the insert to the receiver having each once.
 * Checks: each event arrives exactly once per phase; reports how many arrived out of their order.
 * Prints medians and the recover/baseline ratio (`--markdown`: into docs/benchmarks/recover.md;
 * BENCHMARKS.md is updated from it by hand). `--smoke`: 500 deliveries, one rep.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import pg from "pg";
import { benchFlags, runBench } from "./cli.ts";
import { writeRunSection } from "./harness.ts";
import { settingsFor } from "./settings.ts";

const flags = benchFlags(
  { deliveries: { type: "string", default: "10000" }, reps: { type: "string", default: "3" } },
  { deliveries: "500", reps: "1" },
);
const N = Number(flags.deliveries);
const REPS = Number(flags.reps);
const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DB = "cp_bench_recover";
const DB_URL = Object.assign(new URL(ADMIN_URL), { pathname: `/${DB}` }).toString();
// In-process: this process is the app (its dispatcher and the recover job run here).
Object.assign(process.env, settingsFor("bench:recover (in-process)"), { DATABASE_URL: DB_URL });

const log = (message: string) => console.log(`[bench:recover ${new Date().toISOString().slice(11, 19)}] ${message}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function recreate() {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB}`);
  const [{ server_version }] = (await admin.query<{ server_version: string }>("SHOW server_version")).rows as [{ server_version: string }];
  await admin.end();
  return server_version;
}

/** Answers 200 at once; counts each event id per phase and the arrivals that came before an earlier one's. */
async function startReceiver() {
  const state = { phase: "", counts: new Map<string, number>(), lastN: -1, outOfOrder: 0, done: () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      res.writeHead(200, { "content-length": "2" }).end("ok");
      const { id, data } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        id: string;
        data: { details: { phase: string; n: number } };
      };
      if (data.details.phase !== state.phase) return;
      if (data.details.n < state.lastN) state.outOfOrder++;
      state.lastN = Math.max(state.lastN, data.details.n);
      state.counts.set(id, (state.counts.get(id) ?? 0) + 1);
      if (state.counts.size === N) state.done();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Starts a phase; resolves when every one of its N events has arrived. */
    expect(phase: string): Promise<void> {
      Object.assign(state, { phase, counts: new Map(), lastN: -1, outOfOrder: 0 });
      return new Promise((resolve) => (state.done = resolve));
    },
    report: () => ({ duplicates: [...state.counts.values()].filter((c) => c > 1).length, outOfOrder: state.outOfOrder }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// One statement: N deliveries of N distinct events, in order (created_at a millisecond apart).
const SEED = `INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_id, event_type, payload, status, attempt_count, next_attempt_at, created_at)
  SELECT $1::uuid, $2::uuid, e.id, 'bench.recover',
    json_build_object('id', e.id, 'type', 'bench.recover', 'tenant_id', $1::text, 'created_at', now(),
      'data', json_build_object('details', json_build_object('phase', $3::text, 'n', e.g)))::text,
    $4, $5, $6, now() - interval '1 hour' + e.g * interval '1 millisecond'
  FROM (SELECT g, gen_random_uuid() AS id FROM generate_series(1, $7::int) g) e`;

async function main() {
  const postgres = await recreate();
  const { connectPostgres } = await import("../server/db/client.ts");
  const { migrate } = await import("../server/db/migrate.ts");
  const { SYSTEM_PRINCIPAL, SYSTEM_REQUEST } = await import("../server/auth/principal.ts");
  const { startRecover, runRecoverJobs } = await import("../server/webhooks/recover.ts");
  const { startWebhookDispatcher } = await import("../server/webhooks/sink.ts");
  const { encryptSecret } = await import("../server/secrets/encryption.ts");

  const db = connectPostgres(DB_URL, 10);
  await migrate(db.sql);
  const receiver = await startReceiver();
  const tenant = await db.prisma.tenant.create({ data: { name: "bench" } });
  const webhook = await db.prisma.webhook.create({
    data: {
      tenantId: tenant.id,
      url: `${receiver.url}/hook`,
      events: ["*"],
      secretCiphertext: encryptSecret("bench-secret-0123456789"),
      secretHint: "6789",
    },
  });
  const ctx = { db, tenantId: tenant.id, actor: { principal: SYSTEM_PRINCIPAL, request: SYSTEM_REQUEST } };
  const stop = await startWebhookDispatcher(db);
  const rows: { queueMs: number; deliverMs: number; baselineMs: number; outOfOrder: number; baselineOutOfOrder: number }[] = [];

  for (let rep = 1; rep <= REPS; rep++) {
    const phase = `recover-${rep}`;
    await db.sql.query(SEED, [tenant.id, webhook.id, phase, "exhausted", 8, null, N]);
    const arrived = receiver.expect(phase);
    const t0 = performance.now();
    const job = await startRecover(ctx, {
      tenant_id: tenant.id,
      webhook_id: webhook.id,
      since: new Date(Date.now() - 2 * 3600_000).toISOString(),
    });
    await runRecoverJobs(db); // the request's own kick may hold it: this waits for nothing then
    while ((await db.prisma.webhookDelivery.count({ where: { recoverJobId: job.id } })) < job.queued)
      await new Promise((r) => setTimeout(r, 5));
    const t1 = performance.now();
    await arrived;
    const t2 = performance.now();
    const recovered = receiver.report();
    if (job.queued !== N || recovered.duplicates)
      throw new Error(`recover: queued ${job.queued} of ${N}, ${recovered.duplicates} duplicates`);

    const base = `baseline-${rep}`;
    const baseArrived = receiver.expect(base);
    const t3 = performance.now();
    await db.sql.query(SEED, [tenant.id, webhook.id, base, "pending", 0, new Date(), N]);
    await db.sql.query(`SELECT pg_notify('webhook_deliveries_due', '')`);
    await baseArrived;
    const t4 = performance.now();
    const baseline = receiver.report();
    if (baseline.duplicates) throw new Error(`baseline: ${baseline.duplicates} duplicates`);
    rows.push({
      queueMs: t1 - t0,
      deliverMs: t2 - t1,
      baselineMs: t4 - t3,
      outOfOrder: recovered.outOfOrder,
      baselineOutOfOrder: baseline.outOfOrder,
    });
    log(`rep ${rep}: queue ${(t1 - t0).toFixed(0)} ms, deliver ${(t2 - t1).toFixed(0)} ms, baseline ${(t4 - t3).toFixed(0)} ms`);
  }
  await stop();
  await receiver.close();
  await db.close();

  const queue = median(rows.map((r) => r.queueMs));
  const deliver = median(rows.map((r) => r.deliverMs));
  const baseline = median(rows.map((r) => r.baselineMs));
  const lines = [
    `Machine: ${os.cpus().length} x ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, PostgreSQL ${postgres}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}; ${new Date().toISOString().slice(0, 16)} UTC`,
    "",
    `Recover of ${N.toLocaleString("en")} exhausted deliveries, ${REPS} reps (medians):`,
    "",
    "| phase | median | per delivery |",
    "| --- | --- | --- |",
    `| queue (request + job) | ${queue.toFixed(0)} ms | ${((queue * 1000) / N).toFixed(1)} µs |`,
    `| deliver recovered (to last receipt) | ${deliver.toFixed(0)} ms | ${(N / (deliver / 1000)).toFixed(0)} deliveries/s |`,
    `| baseline: deliver ${N.toLocaleString("en")} fresh deliveries | ${baseline.toFixed(0)} ms | ${(N / (baseline / 1000)).toFixed(0)} deliveries/s |`,
    `| ratio recovered / baseline delivery | ${(deliver / baseline).toFixed(2)} | |`,
    "",
    `Per rep, queue / deliver / baseline (ms): ${rows.map((r) => `${r.queueMs.toFixed(0)} / ${r.deliverMs.toFixed(0)} / ${r.baselineMs.toFixed(0)}`).join("; ")}.`,
    "",
    `Arrivals before an earlier event's (50 concurrent senders), per rep: recover ${rows.map((r) => r.outOfOrder).join(", ")}; baseline ${rows.map((r) => r.baselineOutOfOrder).join(", ")}. Every event arrived exactly once.`,
  ];
  console.log(`\n${lines.join("\n")}`);
  if (flags.markdown) writeRunSection("recover.md", `## Webhook recover\n\n${lines.join("\n")}`, "## Webhook recover");
}

runBench("bench:recover", main);
