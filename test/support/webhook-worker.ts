/**
 * A delivering process for the durability and scale-out tests: runs the delivery engine against
 * DATABASE_URL until no delivery is waiting (due or leased by a dead process), then prints its
 * summary as JSON.
 *   node --import tsx --import ./scripts/server-only.mjs test/support/webhook-worker.ts [--lease-ms N] [--start-at <epoch ms>]
 */
import { wireEventSubscribers } from "../../server/app/features.ts";
import { connectPostgres } from "../../server/db/client.ts";
import type { DeliverySummary } from "../../server/delivery/engine.ts";
import { deliverDueWebhooks } from "../../server/webhooks/sink.ts";
import { validateEmittedEvents } from "./event-validation.ts";

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const leaseMs = Number(option("--lease-ms") ?? 60_000);
const startAt = Number(option("--start-at") ?? 0);

// A composition root: what the engine emits (a webhook turned off, a delivery exhausted) runs the
// subscribers, as in the app, checked against the catalog as in every test.
wireEventSubscribers([validateEmittedEvents]);
const db = connectPostgres(process.env.DATABASE_URL!, 25);
const total: DeliverySummary = { claimed: 0, succeeded: 0, failed: 0, exhausted: 0, disabled: 0 };
if (startAt > Date.now()) await new Promise((resolve) => setTimeout(resolve, startAt - Date.now()));
console.log(JSON.stringify({ ready: true }));
const waiting = async () =>
  (await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status IN ('pending', 'failed')`))[0]!.n;
for (;;) {
  const run = await deliverDueWebhooks(db, { leaseMs, budgetMs: 5000 });
  for (const key of Object.keys(total) as (keyof DeliverySummary)[]) total[key] += run[key];
  if (run.claimed === 0) {
    if ((await waiting()) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
console.log(JSON.stringify(total));
await db.close();
