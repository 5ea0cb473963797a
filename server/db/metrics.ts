/** The database's gauge, read when scraped (server/metrics.ts): this process's Postgres pool. */
import type { Collector } from "../metrics.ts";
import { database } from "./client.ts";

/**
 * Total and idle connections, and queries waiting for one. Registered before the gauges that query
 * (server/ops/scrape.ts), so it is read before their queries take a connection.
 */
export const poolGauge: Collector = {
  name: "db_pool_connections",
  help: "This process's Postgres pool: total and idle connections, and waiting (queries waiting for a connection).",
  labelNames: ["state"],
  async collect() {
    const stats = (await database()).poolStats?.();
    if (!stats) return;
    this.set({ state: "total" }, stats.total);
    this.set({ state: "idle" }, stats.idle);
    this.set({ state: "waiting" }, stats.waiting);
  },
};
