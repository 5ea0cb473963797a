/** The webhooks' gauge, read when scraped (server/metrics.ts): their delivery queue. */
import type { Collector } from "../metrics.ts";
import { database } from "../db/client.ts";
import { errorFields, log } from "../log.ts";

export const deliveriesGauge: Collector = {
  name: "webhook_deliveries",
  help: "Webhook deliveries waiting: due (may be claimed now) and in_flight (claimed by some instance, lease running). Read from the database at scrape time.",
  labelNames: ["state"],
  async collect() {
    try {
      const { sql } = await database();
      const [row] = await sql.query<{ due: number; in_flight: number }>(
        `SELECT count(*) FILTER (WHERE next_attempt_at <= now() AND (locked_until IS NULL OR locked_until <= now()))::int AS due,
                count(*) FILTER (WHERE locked_until > now())::int AS in_flight
         FROM webhook_deliveries WHERE status IN ('pending', 'failed')`,
      );
      this.set({ state: "due" }, row?.due ?? 0);
      this.set({ state: "in_flight" }, row?.in_flight ?? 0);
    } catch (error) {
      log.warn("metrics: cannot count webhook deliveries", errorFields(error));
    }
  },
};
