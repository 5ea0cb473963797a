/** The log streams' gauge, read when scraped (server/metrics.ts): how far the enabled streams lag their chains. */
import type { Collector } from "../metrics.ts";
import { database } from "../db/client.ts";
import { errorFields, log } from "../log.ts";

export const lagGauge: Collector = {
  name: "log_stream_lag_events",
  help: "Audit events not yet sent by enabled log streams, summed per type. Read from the database at scrape time.",
  labelNames: ["type"],
  async collect() {
    try {
      const { sql } = await database();
      const rows = await sql.query<{ type: string; lag: number }>(
        `SELECT s.type, sum(greatest(c.sequence - s.cursor_sequence, 0))::float8 AS lag
           FROM log_streams s JOIN audit_chains c ON c.chain_id = s.tenant_id WHERE s.enabled GROUP BY s.type`,
      );
      this.reset();
      for (const row of rows) this.set({ type: row.type }, row.lag);
    } catch (error) {
      log.warn("metrics: cannot read log stream lag", errorFields(error));
    }
  },
};
