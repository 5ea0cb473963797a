/**
 * `npm run bench:events`: the Events API (GET /api/v1/tenants/{id}/events, issue 25).
 *
 * Self-contained: its own database (cp_bench_events, dropped and created), two app instances of
 * bench/api-server.ts (the REST edge without Next, no build needed) on it, one tenant.
 * 1. follow: `--events` events appended in batches of 100 through both instances at once while
 *    one reader follows cursors on instance A (limit=500, wait=5): events/s the reader keeps up
 *    with (events / time from the first append to the last event read).
 * 2. backlog: the same reader reads them all again from the start: events/s of a catch-up read;
 *    baseline: the same rows read by sequence in SQL (500 a query) on one connection.
 * 3. long poll: `--samples` times, a reader on A waits (wait=30) at the head while an event is
 *    appended through B. Latency = answer received − append answered (the commit is before the
 *    append's answer, so this is a lower bound of commit→answer) and − append sent (an upper
 *    bound). Baseline: a raw LISTEN on tenant_events (what the app's listener gets), same commits.
 *
 * Checks (every run, --smoke too): the follower reads each appended event exactly once.
 *
 * Options: --events <n> (20000) --samples <n> (200) --keep-db; --smoke (2000 events, 20 samples);
 *          --markdown (write docs/benchmarks/events.md)
 */
import pg from "pg";
import { benchFlags, runBench } from "./cli.ts";
import { ADMIN_URL, log, newToken, startApp, withClient, writeRunSection } from "./harness.ts";
import { freePort, stopServer, type Server } from "./procs.ts";
import { machine } from "./system.ts";

const flags = benchFlags(
  { events: { type: "string", default: "20000" }, samples: { type: "string", default: "200" }, "keep-db": { type: "boolean" } },
  { events: "2000", samples: "20" },
);
const EVENTS = Number(flags.events);
const SAMPLES = Number(flags.samples);
const BATCH = 100;
const DB = "cp_bench_events";
const DB_URL = Object.assign(new URL(ADMIN_URL), { pathname: `/${DB}` }).toString();

type Page = { results: { id: string; type: string }[]; next_cursor: string };

async function call(
  method: string,
  url: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const batchOf = (from: number, n: number) => ({
  events: Array.from({ length: n }, (_, i) => ({ event_type: "bench.event", actor: { id: "bench" }, details: { n: from + i } })),
});

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function follow(apps: Server[], tenant: string, token: string): Promise<number> {
  const base = (app: Server) => `${app.url}/api/v1/tenants/${tenant}`;
  const started = performance.now();
  let next = 0;
  const writers = Promise.all(
    Array.from({ length: 4 }, async (_, w) => {
      for (let from = next; from < EVENTS; from = next) {
        next += BATCH;
        const { status, json } = await call(
          "POST",
          `${base(apps[w % 2]!)}/audit/batch`,
          token,
          batchOf(from, Math.min(BATCH, EVENTS - from)),
        );
        if (status !== 201) throw new Error(`append: ${status} ${JSON.stringify(json)}`);
      }
    }),
  );
  const seen = new Set<string>();
  let read = 0;
  let cursor = "";
  while (read < EVENTS) {
    const { json } = await call("GET", `${base(apps[0]!)}/events?limit=500&wait=5${cursor ? `&after=${cursor}` : ""}`, token);
    const page = json as unknown as Page;
    for (const event of page.results.filter((e) => e.type === "bench.event")) seen.add(event.id);
    read += page.results.filter((e) => e.type === "bench.event").length;
    cursor = page.next_cursor;
  }
  await writers;
  if (seen.size !== EVENTS || read !== EVENTS) throw new Error(`the follower read ${read} events, ${seen.size} distinct, of ${EVENTS}`);
  return EVENTS / ((performance.now() - started) / 1000);
}

async function backlog(app: Server, tenant: string, token: string): Promise<{ api: number; sql: number }> {
  let started = performance.now();
  let read = 0;
  let cursor = "";
  for (;;) {
    const { json } = await call("GET", `${app.url}/api/v1/tenants/${tenant}/events?limit=500${cursor ? `&after=${cursor}` : ""}`, token);
    const page = json as unknown as Page;
    if (!page.results.length) break;
    read += page.results.length;
    cursor = page.next_cursor;
  }
  const api = read / ((performance.now() - started) / 1000);
  started = performance.now();
  const rows = await withClient(DB_URL, async (client) => {
    let after = 0;
    let count = 0;
    for (;;) {
      const { rows } = await client.query<{ sequence: number }>(
        `SELECT id, event_type, actor_id, actor_email, target_type, target_id, target_name, details, "timestamp", sequence::int AS sequence,
                source_type, source_token_id, source_user_id
           FROM audit_events WHERE tenant_id = $1::uuid AND sequence > $2 ORDER BY sequence LIMIT 500`,
        [tenant, after],
      );
      if (!rows.length) return count;
      count += rows.length;
      after = rows[rows.length - 1]!.sequence;
    }
  });
  return { api, sql: rows / ((performance.now() - started) / 1000) };
}

async function longPolls(apps: Server[], tenant: string, token: string) {
  const listener = new pg.Client({ connectionString: DB_URL });
  await listener.connect();
  let notified: (() => void) | null = null;
  listener.on("notification", (message) => {
    if (message.payload === tenant) notified?.();
  });
  await listener.query(`LISTEN tenant_events`);
  const lower: number[] = [];
  const upper: number[] = [];
  const raw: number[] = [];
  let { json } = await call("GET", `${apps[0]!.url}/api/v1/tenants/${tenant}/events?limit=500`, token);
  while ((json as unknown as Page).results.length === 500) {
    ({ json } = await call(
      "GET",
      `${apps[0]!.url}/api/v1/tenants/${tenant}/events?limit=500&after=${(json as unknown as Page).next_cursor}`,
      token,
    ));
  }
  let cursor = (json as unknown as Page).next_cursor;
  for (let i = 0; i < SAMPLES; i++) {
    const answered = call("GET", `${apps[0]!.url}/api/v1/tenants/${tenant}/events?wait=30&after=${cursor}`, token).then((r) => ({
      ...r,
      at: performance.now(),
    }));
    const heard = new Promise<number>((resolve) => (notified = () => resolve(performance.now())));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const sent = performance.now();
    await call("POST", `${apps[1]!.url}/api/v1/tenants/${tenant}/audit/batch`, token, batchOf(i, 1));
    const appended = performance.now();
    const answer = await answered;
    cursor = (answer.json as unknown as Page).next_cursor;
    lower.push(answer.at - appended);
    upper.push(answer.at - sent);
    raw.push((await heard) - sent);
  }
  await listener.end();
  return { lower, upper, raw };
}

async function main() {
  const version = await withClient(ADMIN_URL, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${DB}`);
    return (await client.query<{ version: string }>("SELECT version()")).rows[0]!.version;
  });
  const token = newToken();
  const apps: Server[] = [];
  try {
    log("starting two app instances (bench/api-server.ts) …");
    apps.push(await startApp({ port: await freePort(), token, databaseUrl: DB_URL, apiOnly: true }));
    apps.push(await startApp({ port: await freePort(), token, databaseUrl: DB_URL, apiOnly: true }));
    const tenant = await call("POST", `${apps[0]!.url}/api/v1/tenants`, token, { name: "Bench events" });
    if (tenant.status !== 201) throw new Error(`tenant: ${tenant.status} ${JSON.stringify(tenant.json)}`);
    const tenantId = tenant.json.id as string;
    log(`follow: ${EVENTS} events appended through both instances while a reader follows …`);
    const followRate = await follow(apps, tenantId, token);
    log(`backlog: reading them all again …`);
    const catchUp = await backlog(apps[0]!, tenantId, token);
    log(`long poll: ${SAMPLES} samples …`);
    const polls = await longPolls(apps, tenantId, token);
    const m = machine(version);
    const date = new Date().toISOString().slice(0, 10);
    const section = [
      "## Events API",
      "",
      `\`npm run bench:events -- ${flags.smoke ? "--smoke" : `--events ${EVENTS} --samples ${SAMPLES}`}\` on ${date}: ${m.nproc} cores, ${m.cpuModel}, Node ${m.node}, ${m.postgres.split(" ").slice(0, 2).join(" ")}; two instances of bench/api-server.ts, ${EVENTS} events, ${SAMPLES} long polls.`,
      "",
      "| measure | value |",
      "| --- | --- |",
      `| follow while 2 instances write (limit=500, wait=5) | ${followRate.toFixed(0)} events/s |`,
      `| backlog read through the API (limit=500) | ${catchUp.api.toFixed(0)} events/s |`,
      `| baseline: the same rows by sequence in SQL | ${catchUp.sql.toFixed(0)} events/s (API = ${((catchUp.api / catchUp.sql) * 100).toFixed(0)} %) |`,
      `| long poll: answer − append answered (p50 / p99) | ${ms(quantile(polls.lower, 0.5))} / ${ms(quantile(polls.lower, 0.99))} |`,
      `| long poll: answer − append sent (p50 / p99) | ${ms(quantile(polls.upper, 0.5))} / ${ms(quantile(polls.upper, 0.99))} |`,
      `| baseline: raw LISTEN notice − append sent (p50 / p99) | ${ms(quantile(polls.raw, 0.5))} / ${ms(quantile(polls.raw, 0.99))} |`,
      "",
    ].join("\n");
    console.log(`\n${section}`);
    if (flags.markdown) writeRunSection("events.md", section, "## Events API");
  } finally {
    await Promise.all(apps.map((app) => stopServer(app)));
    if (!flags["keep-db"]) await withClient(ADMIN_URL, (client) => client.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`));
  }
}

runBench("bench:events", main);
