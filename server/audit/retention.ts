/**
 * Audit partitions and retention, run by housekeeping. Both go through the database's privileged
 * functions (SECURITY DEFINER, owned by the migrations' role: see migration
 * 20261124001000_audit_partitions and docs/audit-log.md "Audit log: database roles"), so the app's own role
 * never needs the right to create, drop, update or delete anything in the audit log.
 */
import type { Database } from "../db/client.ts";
import { emitEvent, SYSTEM_ACTOR } from "../events/emit.ts";

/** Months of partitions kept ready ahead of the current one. */
export const PARTITION_MONTHS_AHEAD = 3;
const PLATFORM_CHAIN = "00000000-0000-0000-0000-000000000000";

/** Creates the monthly partitions still missing up to PARTITION_MONTHS_AHEAD ahead; how many. */
export async function ensureAuditPartitions(db: Database): Promise<number> {
  const [row] = await db.sql.query<{ created: number }>(`SELECT audit_events_ensure_partitions($1::int) AS created`, [
    PARTITION_MONTHS_AHEAD,
  ]);
  return row!.created;
}

interface PurgedRow {
  chain_id: string;
  events_purged: string | number;
  anchor_sequence: string | number;
  anchor_hash: string;
  partition_name: string;
  purged_before: Date;
}

/**
 * Drops the months that ended more than `retentionDays` ago and records, in the same transaction,
 * one `audit.retention_purged` event per chain that lost events (in that chain: the tenant's own
 * log, or the platform log), naming the new anchor its chain verifies from. Returns the number of
 * events removed.
 */
export async function purgeExpiredAudit(db: Database, retentionDays: number): Promise<number> {
  return db.sql.transaction(async (tx) => {
    const rows = await tx.query<PurgedRow>(`SELECT * FROM audit_events_purge($1::int)`, [retentionDays]);
    const byChain = new Map<string, { events: number; anchorSequence: number; anchorHash: string; partitions: string[]; before: Date }>();
    for (const row of rows) {
      const chain = byChain.get(row.chain_id) ?? {
        events: 0,
        anchorSequence: 0,
        anchorHash: "",
        partitions: [],
        before: row.purged_before,
      };
      chain.events += Number(row.events_purged);
      if (Number(row.anchor_sequence) > chain.anchorSequence) {
        chain.anchorSequence = Number(row.anchor_sequence);
        chain.anchorHash = row.anchor_hash;
      }
      chain.partitions.push(row.partition_name);
      if (row.purged_before > chain.before) chain.before = row.purged_before;
      byChain.set(row.chain_id, chain);
    }
    // In chain order, as every writer takes chain heads.
    for (const [chainId, chain] of [...byChain.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      await emitEvent(tx, SYSTEM_ACTOR, {
        type: "audit.retention_purged",
        tenantId: chainId === PLATFORM_CHAIN ? null : chainId,
        details: {
          retention_days: retentionDays,
          purged_before: chain.before.toISOString(),
          events_purged: chain.events,
          anchor_sequence: chain.anchorSequence,
          anchor_hash: chain.anchorHash,
          partitions: chain.partitions,
        },
      });
    }
    return [...byChain.values()].reduce((sum, chain) => sum + chain.events, 0);
  });
}
