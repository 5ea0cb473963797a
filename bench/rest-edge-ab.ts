/**
 * The REST edge of two checkouts, A and B, in one process: the same requests through each one's
 * `handleRest` (small bodies read aside, as the servers read them), in alternating batches of
 * --batch (1000) requests at 50 in flight, --rounds (15) times; CPU per request from
 * process.cpuUsage, medians per checkout and the median of each round's B/A. No HTTP and no load
 * generator: on a shared machine, alternating batches in one process keeps other load out of the
 * comparison far better than runs of the probes minutes apart. Scenarios (--only one of them):
 * a single append (201), the same with an Idempotency-Key (201, claimed and stored), GET a tenant
 * (200), the tenants list of `npm run bench` (200, over 10,000 seeded tenants: the token
 * lookup, the page and its count), an append without a token (401 from the procedure; only the
 * address's rate-limit lease reaches the database). Rate limits on, as in the append probe. On a fresh database
 * cp_bench_rest_ab, dropped after; start-up (migrations, the token) runs from A.
 *
 *   git archive <commit> | tar -x -C /tmp/edge-a   (then link node_modules, copy server/db/generated)
 *   npx tsx --import ./scripts/server-only.mjs bench/rest-edge-ab.ts /tmp/edge-a . [--rounds 15] [--batch 1000]
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { ADMIN_URL, newToken, seed, withClient } from "./harness.ts";
import { settingsFor } from "./settings.ts";

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: "string", default: "15" },
    batch: { type: "string", default: "1000" },
    only: { type: "string" },
  },
});
if (positionals.length !== 2) throw new Error("usage: rest-edge-ab.ts <checkout A> <checkout B>");
const [ROUNDS, BATCH, IN_FLIGHT] = [Number(flags.rounds), Number(flags.batch), 50];
const DB = "cp_bench_rest_ab";
const ORIGIN = "http://127.0.0.1:3999";
const token = newToken();

await withClient(ADMIN_URL, async (c) => {
  await c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await c.query(`CREATE DATABASE ${DB}`);
});
// The checkouts read the environment once, at their first request; both get this one.
Object.assign(process.env, {
  ...settingsFor("in-process checkouts"),
  NODE_ENV: "production",
  DATABASE_URL: Object.assign(new URL(ADMIN_URL), { pathname: `/${DB}` }).toString(),
  NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
  APP_URL: ORIGIN,
  BOOTSTRAP_ADMIN_EMAIL: "bench-operator@example.com",
  BOOTSTRAP_ADMIN_PASSWORD: randomBytes(12).toString("base64url"),
  BOOTSTRAP_TOKEN: token,
});

type Handler = (req: Request) => Promise<Response>;
interface Edge {
  name: "A" | "B";
  serve(req: IncomingMessage): Promise<Response>;
}

async function edgeOf(name: Edge["name"], checkout: string): Promise<Edge> {
  const from = (file: string) => import(path.resolve(checkout, file));
  const { handleRest } = (await from("server/http/rest.ts")) as { handleRest: Handler };
  const { readWebRequest } = (await from("server/http/node.ts")) as {
    readWebRequest(req: IncomingMessage, origin: string, options: { aside: boolean }): Promise<Request>;
  };
  ((await from("server/app/features.ts")) as { wireEventSubscribers(): void }).wireEventSubscribers();
  return { name, serve: async (req) => handleRest(await readWebRequest(req, ORIGIN, { aside: true })) };
}

const startup = (await import(path.resolve(positionals[0]!, "server/app/startup.ts"))) as Record<
  "startServer" | "stopBackgroundWork",
  () => Promise<void>
>;
await startup.startServer();
const edges = [await edgeOf("A", positionals[0]!), await edgeOf("B", positionals[1]!)];

/** What node:http hands the server: a readable body with the request's head on it. */
function incoming(method: string, url: string, headers: Record<string, string>, body?: string): IncomingMessage {
  const bytes = body === undefined ? [] : [Buffer.from(body)];
  // The client address as the servers settle it where a request enters (one X-Forwarded-For entry).
  const head = { host: "127.0.0.1:3999", "user-agent": "rest-edge-ab", "x-forwarded-for": "127.0.0.1", ...headers };
  if (bytes[0]) Object.assign(head, { "content-length": String(bytes[0].length) });
  return Object.assign(Readable.from(bytes), { method, url, headers: head, socket: { remoteAddress: "127.0.0.1" } }) as never;
}

const bearer = { authorization: `Bearer ${token}` };
const json = { "content-type": "application/json" };
const created = await edges[0]!.serve(incoming("POST", "/api/v1/tenants", { ...bearer, ...json }, JSON.stringify({ name: "Edge A/B" })));
const tenant = ((await created.json()) as { id: string }).id;
// The tenants list scenario reads 10,000 tenants, as `npm run bench` seeds them.
await withClient(Object.assign(new URL(ADMIN_URL), { pathname: `/${DB}` }).toString(), (client) => seed(client));
let n = 0;
const event = () =>
  JSON.stringify({ event_type: "bench.appended", actor: { id: "bench", email: "bench@example.com" }, details: { n: ++n } });
const audit = `/api/v1/tenants/${tenant}/audit`;
const SCENARIOS: Record<string, { status: number; request(): IncomingMessage }> = {
  append: { status: 201, request: () => incoming("POST", audit, { ...bearer, ...json }, event()) },
  "append with key": {
    status: 201,
    request: () => incoming("POST", audit, { ...bearer, ...json, "idempotency-key": `ab-${process.pid}-${n + 1}` }, event()),
  },
  "get tenant": { status: 200, request: () => incoming("GET", `/api/v1/tenants/${tenant}`, bearer) },
  "list tenants": { status: 200, request: () => incoming("GET", "/api/v1/tenants", bearer) },
  "append, no token": { status: 401, request: () => incoming("POST", audit, json, event()) },
};

/** Microseconds of CPU per request over one batch. */
async function batch(edge: Edge, { status, request }: (typeof SCENARIOS)[string]): Promise<number> {
  let left = BATCH;
  let unexpected = 0;
  const start = process.cpuUsage();
  const client = async () => {
    while (left-- > 0) {
      const response = await edge.serve(request());
      await response.arrayBuffer();
      if (response.status !== status) unexpected++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, client));
  const used = process.cpuUsage(start);
  if (unexpected) throw new Error(`${edge.name}: ${unexpected} answers were not ${status}`);
  return (used.user + used.system) / BATCH;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`A = ${positionals[0]}, B = ${positionals[1]}; ${ROUNDS} rounds of ${BATCH} requests each`);
for (const [name, scenario] of Object.entries(SCENARIOS)) {
  if (flags.only && flags.only !== name) continue;
  for (const edge of edges) for (let warm = 0; warm < 3; warm++) await batch(edge, scenario);
  const us = { A: [] as number[], B: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    // Each checkout goes first in every other round, so neither always follows the other's garbage.
    for (const edge of round % 2 ? [...edges].reverse() : edges) us[edge.name].push(await batch(edge, scenario));
  }
  const ratios = us.B.map((b, i) => b / us.A[i]!);
  console.log(
    `${name}: A ${median(us.A).toFixed(0)} µs, B ${median(us.B).toFixed(0)} µs CPU per request (medians); ` +
      `B/A ${(median(us.B) / median(us.A)).toFixed(3)}, median of the rounds' B/A ${median(ratios).toFixed(3)}`,
  );
  console.log(`  A: ${us.A.map((x) => x.toFixed(0)).join(" ")}\n  B: ${us.B.map((x) => x.toFixed(0)).join(" ")}`);
}
await startup.stopBackgroundWork();
await ((await import(path.resolve(positionals[0]!, "server/db/client.ts"))) as { database(): Promise<{ close(): Promise<void> }> })
  .database()
  .then((db) => db.close());
await withClient(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`));
