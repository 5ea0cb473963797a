/**
 * `npm run bench:webhooks-pace`: the delivery engine in-process against its own database
 * (cp_bench_pace) and one local receiver, without Next or REST, so two builds of the engine can be
 * compared run for run (issue 25 item 5). Prints only (BENCHMARKS.md, "Webhook pace").
 *
 * - unlimited: `--deliveries` due rows (inserted in one statement, spread over `--webhooks`
 *   webhooks without pace or order) drained by `deliverDueWebhooks` runs; deliveries/s = rows /
 *   (last receipt - start). Median of `--reps`.
 * - paced (unless `--unlimited-only`): one webhook limited to `--rate` per second with
 *   `--paced-deliveries` due, worked by two dispatchers (two pools, as two instances); measured
 *   rate = (receipts - 1) / (last - first), and the most receipts in any 1 s and 10 s.
 * Every delivery must arrive exactly once.
 *
 * Options: --deliveries <n> (10000) --webhooks <n> (20) --reps <n> (3) --rate <n> (500)
 *          --paced-deliveries <n> (10000) --unlimited-only
 *          --smoke (500 deliveries, 1 rep, 100 paced at 50/s: what `npm test` runs)
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { ADMIN_URL, log, withClient } from "./harness.ts";
import { benchFlags, runBench } from "./cli.ts";
import { settingsFor } from "./settings.ts";

const flags = benchFlags(
  {
    deliveries: { type: "string", default: "10000" },
    webhooks: { type: "string", default: "20" },
    reps: { type: "string", default: "3" },
    rate: { type: "string", default: "500" },
    "paced-deliveries": { type: "string", default: "10000" },
    "unlimited-only": { type: "boolean" },
  },
  { deliveries: "500", reps: "1", rate: "50", "paced-deliveries": "100" },
);
const DB = "cp_bench_pace";
const DB_URL = Object.assign(new URL(ADMIN_URL), { pathname: `/${DB}` }).toString();
Object.assign(process.env, settingsFor("bench:webhooks-pace (its own process)"), {
  DATABASE_URL: DB_URL,
  NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
  ENCRYPTION_KEY: randomBytes(32).toString("base64"),
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The most of the (sorted) `times` in any window of `ms`. */
function busiest(times: number[], ms: number): number {
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= ms) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

async function main() {
  const { connectPostgres } = await import("../server/db/client.ts");
  const { migrate } = await import("../server/db/migrate.ts");
  const { encryptSecret } = await import("../server/secrets/encryption.ts");
  const { deliverDueWebhooks, startWebhookDispatcher } = await import("../server/webhooks/sink.ts");

  const arrivals: number[] = [];
  const seen = new Set<string>();
  let twice = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      arrivals.push(performance.now());
      const id = (JSON.parse(Buffer.concat(chunks).toString()) as { n: number }).n;
      if (seen.has(`${req.url}|${id}`)) twice += 1;
      seen.add(`${req.url}|${id}`);
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
  const second = connectPostgres(DB_URL, 25);
  try {
    await migrate(db.sql);
    const [tenant] = await db.sql.query<{ id: string }>(`INSERT INTO tenants (name) VALUES ('bench') RETURNING id`);
    const webhooks = async (count: number, rate: number | null) =>
      (
        await db.sql.query<{ id: string }>(
          `INSERT INTO webhooks (tenant_id, url, events, secret_ciphertext, secret_hint, rate_limit_per_second)
           SELECT $1::uuid, $2 || '/' || i, ARRAY['*'], $3, 'hint', $5 FROM generate_series(1, $4) AS i RETURNING id`,
          [tenant!.id, receiverUrl, encryptSecret("bench-pace-secret-0123"), count, rate],
        )
      ).map((r) => r.id);
    // Each due delivery's payload is {"n": i}: the receiver checks that none arrives twice.
    const due = (ids: string[], count: number) =>
      db.sql.query(
        `INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_id, event_type, payload, next_attempt_at)
         SELECT $1::uuid, ($2::uuid[])[1 + i % cardinality($2::uuid[])], gen_random_uuid(), 'bench.pace', json_build_object('n', i)::text, now()
         FROM generate_series(0, $3 - 1) AS i`,
        [tenant!.id, ids, count],
      );

    const count = Number(flags.deliveries);
    const hooks = await webhooks(Number(flags.webhooks), null);
    const rates: number[] = [];
    for (let rep = 0; rep < Number(flags.reps); rep++) {
      await db.sql.query(`DELETE FROM webhook_deliveries`);
      await due(hooks, count);
      arrivals.length = 0;
      seen.clear();
      const start = performance.now();
      while ((await deliverDueWebhooks(db, { budgetMs: 60_000 })).claimed > 0);
      if (arrivals.length !== count || twice)
        throw new Error(`expected ${count} receipts once each, got ${arrivals.length} (${twice} twice)`);
      rates.push(count / ((arrivals.at(-1)! - start) / 1000));
      log(`unlimited rep ${rep + 1}: ${count} deliveries at ${rates.at(-1)!.toFixed(0)}/s`);
    }
    log(
      `unlimited: median ${median(rates).toFixed(0)} deliveries/s over ${rates.length} reps (${rates.map((r) => r.toFixed(0)).join(", ")})`,
    );
    if (flags["unlimited-only"]) return;

    const rate = Number(flags.rate);
    const paced = Number(flags["paced-deliveries"]);
    await db.sql.query(`DELETE FROM webhook_deliveries`);
    const [hook] = await webhooks(1, rate);
    arrivals.length = 0;
    seen.clear();
    const stops = [await startWebhookDispatcher(db), await startWebhookDispatcher(second)];
    await due([hook!], paced);
    await db.sql.query(`SELECT pg_notify('webhook_deliveries_due', '')`);
    const deadline = Date.now() + (paced / rate) * 2000 + 30_000;
    while (arrivals.length < paced && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    for (const stop of stops) await stop();
    if (arrivals.length !== paced || twice)
      throw new Error(`expected ${paced} paced receipts once each, got ${arrivals.length} (${twice} twice)`);
    const measured = (paced - 1) / ((arrivals.at(-1)! - arrivals[0]!) / 1000);
    log(
      `paced: limit ${rate}/s, ${paced} deliveries by two dispatchers: measured ${measured.toFixed(2)}/s, ` +
        `at most ${busiest(arrivals, 1000)} in any 1 s, ${busiest(arrivals, 10_000)} in any 10 s`,
    );
  } finally {
    await db.close();
    await second.close();
    server.close();
    await withClient(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`));
  }
}

runBench("bench:webhooks-pace", main);
