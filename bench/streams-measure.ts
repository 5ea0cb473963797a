/**
 * The measurements of bench/streams.ts, each over one log stream created through the REST API
 * against a local receiver: a backfill (start_from oldest) timed from the create's answer until
 * the stream's cursor reaches the chain head, with the app's and Postgres's CPU over it; the same
 * rows through `COPY … TO STDOUT`; and the live lag of events appended over REST at a steady rate.
 */
import { execFileSync } from "node:child_process";
import pg from "pg";
import { AUDIT_COLUMNS } from "../server/audit/query.ts";
import { cpuBetween, sampleCpu } from "./system.ts";
import type { BenchReceiver } from "./streams-receivers.ts";

export interface Api {
  url: string;
  token: string;
  password: string;
  pid: number;
}

async function call(api: Api, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${api.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${api.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** A log stream over REST (stepped up first: creating one asks for it), answers its id. */
export async function createStream(api: Api, tenantId: string, receiver: BenchReceiver, startFrom: "oldest" | "now"): Promise<string> {
  await call(api, "POST", "/auth/step-up", { password: api.password });
  const created = await call(api, "POST", `/tenants/${tenantId}/log-streams`, {
    name: `bench ${receiver.type}`,
    ...receiver.stream,
    start_from: startFrom,
  });
  return created.id as string;
}

export async function deleteStream(api: Api, tenantId: string, streamId: string): Promise<void> {
  await call(api, "POST", "/auth/step-up", { password: api.password });
  await call(api, "DELETE", `/tenants/${tenantId}/log-streams/${streamId}`);
}

/** Polls the stream's row (not the API: the app's CPU is what is measured) until its cursor reaches `target`. */
async function cursorReaches(db: pg.Client, streamId: string, target: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<{ c: string; e: string | null }>(
      "SELECT cursor_sequence AS c, last_error AS e FROM log_streams WHERE id = $1",
      [streamId],
    );
    if (Number(rows[0]!.c) >= target) return;
    // A bench's receivers never fail: an error is a broken run, said at once rather than after the timeout.
    if (rows[0]!.e) throw new Error(`stream ${streamId} failed a batch at ${rows[0]!.c} of ${target}: ${rows[0]!.e}`);
    if (Date.now() > deadline)
      throw new Error(`stream ${streamId} at ${rows[0]!.c} of ${target} after ${timeoutMs / 1000} s: ${rows[0]!.e}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const databasePids = async (db: pg.Client) =>
  (
    await db.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
  ).rows.map((r) => r.pid);

export interface BackfillRun {
  receiver: string;
  events: number;
  seconds: number;
  eventsPerSecond: number;
  /** CPU ms per 1,000 events streamed: the app's, and its Postgres backends'. */
  appCpuMs: number;
  dbCpuMs: number;
  /** Cores busy on average: app, Postgres, this process (receivers), everything else. */
  cores: { app: number; db: number; bench: number; other: number };
  received: number;
}

/**
 * A stream from the oldest event of `tenantId` to `receiver`: time and CPU until its cursor passes
 * the `history` seeded events. (The events made since, `log_stream.created` and the like, are live
 * ones: the last short batch waits LOG_STREAM_BATCH_WAIT_MS by design, and is not the backfill's.)
 */
export async function backfill(api: Api, db: pg.Client, tenantId: string, receiver: BenchReceiver, history: number, timeoutMs: number) {
  const before = receiver.received();
  const start = sampleCpu(api.pid, await databasePids(db));
  const started = performance.now();
  const streamId = await createStream(api, tenantId, receiver, "oldest");
  const target = history;
  await cursorReaches(db, streamId, target, timeoutMs);
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuBetween(start, sampleCpu(api.pid, await databasePids(db)), target / 1000);
  await deleteStream(api, tenantId, streamId);
  const run: BackfillRun = {
    receiver: receiver.type,
    events: target,
    seconds,
    eventsPerSecond: target / seconds,
    appCpuMs: cpu.serverMsPerRequest,
    dbCpuMs: cpu.databaseMsPerRequest,
    cores: { app: cpu.serverCores, db: cpu.databaseCores, bench: cpu.loadGeneratorCores, other: cpu.otherCores },
    received: receiver.received() - before,
  };
  if (run.received < target) throw new Error(`${receiver.type}: the receiver holds ${run.received} of ${target} events`);
  return run;
}

/** The same rows the stream read (the engine's columns, in sequence order) by COPY to psql's /dev/null. */
export function copyRows(dbUrl: string, tenantId: string, to: number): { seconds: number; eventsPerSecond: number } {
  const query = `SELECT ${AUDIT_COLUMNS} FROM audit_events e WHERE e.tenant_id = '${tenantId}' AND e.sequence BETWEEN 1 AND ${to} ORDER BY e.sequence`;
  const started = performance.now();
  execFileSync("psql", [dbUrl, "-X", "-q", "-o", "/dev/null", "-c", `COPY (${query.replace(/\s+/g, " ")}) TO STDOUT`]);
  const seconds = (performance.now() - started) / 1000;
  return { seconds, eventsPerSecond: to / seconds };
}

export interface LiveRun {
  offeredPerSecond: number;
  appendedPerSecond: number;
  events: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/**
 * Appends `rate` events/s for `seconds` (POST …/audit/batch every 50 ms, up to 8 in flight) to a
 * stream started `now` on `receiver`; lag = the receiver's arrival of a sequence − the append's
 * answer naming it.
 */
export async function liveLag(api: Api, tenantId: string, receiver: BenchReceiver, rate: number, seconds: number): Promise<LiveRun> {
  const streamId = await createStream(api, tenantId, receiver, "now");
  const answered = new Map<number, number>();
  const perTick = Math.max(1, Math.round(rate / 20));
  const ticks = Math.round(seconds * 20);
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  for (let tick = 0; tick < ticks; tick++) {
    const due = started + tick * 50;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    while (inFlight.size >= 8) await Promise.race(inFlight);
    const events = Array.from({ length: perTick }, (_, i) => ({
      event_type: "bench.streams",
      actor: { id: "bench", email: "bench@example.com" },
      target: { type: "bench", id: String(tick * perTick + i) },
      details: { tick, i },
    }));
    const request = call(api, "POST", `/tenants/${tenantId}/audit/batch`, { events }).then((body) => {
      const at = Date.now();
      for (const event of body.results as { sequence: number }[]) answered.set(event.sequence, at);
    });
    const tracked = request.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  }
  await Promise.all(inFlight);
  const appendSeconds = (performance.now() - started) / 1000;
  const deadline = Date.now() + 60_000;
  while ([...answered.keys()].some((seq) => !receiver.arrivals.has(seq))) {
    if (Date.now() > deadline) throw new Error(`live: events still missing at the receiver 60 s after the last append`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await deleteStream(api, tenantId, streamId);
  const lags = [...answered].map(([seq, at]) => receiver.arrivals.get(seq)! - at).sort((a, b) => a - b);
  return {
    offeredPerSecond: perTick * 20,
    appendedPerSecond: answered.size / appendSeconds,
    events: answered.size,
    p50Ms: quantile(lags, 0.5),
    p99Ms: quantile(lags, 0.99),
    maxMs: lags[lags.length - 1]!,
  };
}
