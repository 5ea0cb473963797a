/**
 * `npm run bench:webhooks-pace`: the delivery engine in-process against its own database
 * (cp_bench_pace) and one local receiver, without Next or REST, so two builds of the engine can be
 * compared run for run (issue 25 item 5).
 *
 * - unlimited: `--deliveries` due rows (inserted in one statement, spread over `--webhooks`
 *   webhooks without pace or order) drained by `deliverDueWebhooks` runs; deliveries/s = rows /
 *   (last receipt - start). Median of `--reps`.
 * - paced (`--paced`, needs rate_limit_per_second): one webhook limited to `--rate` per second
 *   with `--paced-deliveries` due, worked by two dispatchers (two pools, as two instances);
 *   measured rate = (receipts - 1) / (last - first), and the most receipts in any 1 s window.
 *
 * Options: --deliveries <n> (20000) --webhooks <n> (20) --reps <n> (5) --paced --rate <n> (50)
 *          --paced-deliveries <n> (500)
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { ADMIN_URL, log, withClient } from "./harness.ts";

const { values: flags } = parseArgs({
  options: {
    deliveries: { type: "string", default: "20000" },
    webhooks: { type: "string", default: "20" },
    reps: { type: "string", default: "5" },
    paced: { type: "boolean", default: false },
    rate: { type: "string", default: "50" },
    "paced-deliveries": { type: "string", default: "500" },
  },
});
const DB = "cp_bench_pace";
const DB_URL = Object.assign(new URL(ADMIN_URL), { pathname: `/${DB}` }).toString();
process.env.DATABASE_URL = DB_URL;
process.env.LOG_LEVEL = "warn";
process.env.OUTBOUND_ALLOW_PRIVATE = "true";
process.env.NEXTAUTH_SECRET ??= randomBytes(32).toString("base64url");
process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("base64");

const { connectPostgres } = await import("../server/db/client.ts");
const { migrate } = await import("../server/db/migrate.ts");
const { encryptSecret } = await import("../server/secrets/encryption.ts");
const { deliverDueWebhooks, startWebhookDispatcher } = await import("../server/webhooks/sink.ts");

const arrivals: number[] = [];
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    arrivals.push(performance.now());
    res.writeHead(200).end("ok");
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

await withClient(ADMIN_URL, async (c) => {
  await c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await c.query(`CREATE DATABASE ${DB}`);
});
const db = connectPostgres(DB_URL, 25);
await migrate(db.sql);
const [tenant] = await db.sql.query<{ id: string }>(`INSERT INTO tenants (name) VALUES ('bench') RETURNING id`);

async function webhooks(count: number, extra = ""): Promise<string[]> {
  const rows = await db.sql.query<{ id: string }>(
    `INSERT INTO webhooks (tenant_id, url, events, secret_ciphertext, secret_hint${extra ? ", rate_limit_per_second" : ""})
     SELECT $1::uuid, $2, ARRAY['*'], $3, 'hint'${extra ? `, ${extra}` : ""} FROM generate_series(1, $4) RETURNING id`,
    [tenant!.id, `${receiverUrl}/hook`, encryptSecret("bench-pace-secret-0123"), count],
  );
  return rows.map((r) => r.id);
}

async function due(ids: string[], count: number) {
  await db.sql.query(
    `INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_id, event_type, payload, next_attempt_at)
     SELECT $1::uuid, ($2::uuid[])[1 + i % cardinality($2::uuid[])], gen_random_uuid(), 'bench.pace', '{"bench":true}', now()
     FROM generate_series(0, $3 - 1) AS i`,
    [tenant!.id, ids, count],
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const DELIVERIES = Number(flags.deliveries);
const hooks = await webhooks(Number(flags.webhooks));
const rates: number[] = [];
for (let rep = 0; rep < Number(flags.reps); rep++) {
  await db.sql.query(`DELETE FROM webhook_deliveries`);
  await due(hooks, DELIVERIES);
  arrivals.length = 0;
  const start = performance.now();
  while ((await deliverDueWebhooks(db, { budgetMs: 60_000 })).claimed > 0);
  const perSecond = DELIVERIES / ((arrivals.at(-1)! - start) / 1000);
  if (arrivals.length !== DELIVERIES) throw new Error(`expected ${DELIVERIES} receipts, got ${arrivals.length}`);
  rates.push(perSecond);
  log(`unlimited rep ${rep + 1}: ${DELIVERIES} deliveries at ${perSecond.toFixed(0)}/s`);
}
log(`unlimited: median ${median(rates).toFixed(0)} deliveries/s over ${rates.length} reps (${rates.map((r) => r.toFixed(0)).join(", ")})`);

if (flags.paced) {
  const rate = Number(flags.rate);
  const count = Number(flags["paced-deliveries"]);
  await db.sql.query(`DELETE FROM webhook_deliveries`);
  const [paced] = await webhooks(1, String(rate));
  arrivals.length = 0;
  const second = connectPostgres(DB_URL, 25);
  const stops = [await startWebhookDispatcher(db), await startWebhookDispatcher(second)];
  await due([paced!], count);
  await db.sql.query(`SELECT pg_notify('webhook_deliveries_due', '')`);
  while (arrivals.length < count) await new Promise((resolve) => setTimeout(resolve, 100));
  for (const stop of stops) await stop();
  await second.close();
  const measured = (count - 1) / ((arrivals.at(-1)! - arrivals[0]!) / 1000);
  const most = (ms: number) => {
    let n = 0;
    for (let i = 0, j = 0; i < arrivals.length; i++) {
      while (arrivals[i]! - arrivals[j]! >= ms) j++;
      n = Math.max(n, i - j + 1);
    }
    return n;
  };
  log(
    `paced: limit ${rate}/s, ${count} deliveries by two dispatchers: measured ${measured.toFixed(2)}/s, ` +
      `at most ${most(1000)} in any 1 s, ${most(10_000)} in any 10 s`,
  );
}

await db.close();
server.close();
await withClient(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`));
