/** Monthly partitions of audit_events as an installation running for years has them (created then by housekeeping). */
import type pg from "pg";

export const monthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
export const partitionName = (at: Date) => `audit_events_${at.getUTCFullYear()}_${String(at.getUTCMonth() + 1).padStart(2, "0")}`;

/** Creates (if missing) and guards the partition of `at`'s month, as the owner; its name. */
export async function createMonth(raw: pg.Client, at: Date): Promise<string> {
  const from = monthStart(at);
  const to = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1));
  const name = partitionName(at);
  if ((await raw.query(`SELECT to_regclass($1) IS NOT NULL AS ok`, [name])).rows[0].ok) return name;
  await raw.query(`CREATE TABLE ${name} PARTITION OF audit_events FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`);
  await raw.query(`SELECT audit_events_guard_partition('${name}'::regclass)`);
  return name;
}
