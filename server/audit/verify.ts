/**
 * Checks a tenant's hash chain: every event's hash recomputed by the database's own
 * audit_event_hash(), each prev_hash equal to the previous event's hash, sequences without gaps,
 * and the last event equal to the chain head. Walks in keyset batches, so memory stays flat.
 */
import type { TenantServiceContext } from "../service-context.ts";
import type { AuditVerification } from "./schemas.ts";

const BATCH = 5000;
const GENESIS = "0".repeat(64);

interface Link {
  sequence: string | number;
  hash: string;
  prev_hash: string;
  computed: string;
}

export async function verifyChain(ctx: TenantServiceContext, input: { from_sequence?: number }): Promise<AuditVerification> {
  const { sql } = ctx.db;
  const { tenantId } = ctx;
  let fromSequence = input.from_sequence ?? 1;
  const [head] = await sql.query<{ sequence: string | number; hash: string; anchor_sequence: string | number; anchor_hash: string | null }>(
    `SELECT sequence, hash, anchor_sequence, anchor_hash FROM audit_chains WHERE chain_id = $1::uuid`,
    [tenantId],
  );
  const headSequence = Number(head?.sequence ?? 0);
  // Retention dropped the events up to the anchor: the chain is checked from the one after it.
  const anchorSequence = Number(head?.anchor_sequence ?? 0);
  const anchorHash = head?.anchor_hash ?? GENESIS;
  let checked = 0;
  const result = (firstInvalid: number | null): AuditVerification => ({
    valid: firstInvalid === null,
    checked,
    first_invalid_sequence: firstInvalid,
    head_sequence: headSequence,
    anchor_sequence: anchorSequence,
    anchor_hash: anchorHash,
  });
  fromSequence = Math.max(fromSequence, anchorSequence + 1);
  if (fromSequence > headSequence) return result(null);

  let expected = fromSequence;
  let previousHash = anchorHash;
  if (fromSequence > anchorSequence + 1) {
    const [before] = await sql.query<{ hash: string }>(
      `SELECT hash FROM audit_events WHERE tenant_id = $1::uuid AND sequence = $2::bigint`,
      [tenantId, fromSequence - 1],
    );
    if (!before) return result(fromSequence - 1);
    previousHash = before.hash;
  }

  while (expected <= headSequence) {
    // The batch's sequence range is bounded, and each row's hash is computed over the page alone
    // (a materialized CTE): with stale statistics (no autovacuum yet, or PGlite, which has none)
    // Postgres may scan and sort the partition instead of walking the index, and would otherwise
    // hash every row of the range before sorting, for every batch.
    const rows = await sql.query<Link>(
      `WITH page AS MATERIALIZED (
         SELECT e FROM audit_events e
          WHERE e.tenant_id = $1::uuid AND e.sequence >= $2::bigint AND e.sequence <= $3::bigint
          ORDER BY e.sequence LIMIT ${BATCH})
       SELECT (e).sequence, (e).hash, (e).prev_hash, audit_event_hash(e) AS computed FROM page ORDER BY (e).sequence`,
      [tenantId, expected, Math.min(headSequence, expected + BATCH - 1)],
    );
    if (rows.length === 0) return result(expected);
    for (const row of rows) {
      const sequence = Number(row.sequence);
      if (sequence !== expected) return result(expected);
      if (row.prev_hash !== previousHash || row.computed !== row.hash) return result(sequence);
      checked++;
      previousHash = row.hash;
      expected++;
    }
  }
  // The head must be the last event: a head that moved or was rewritten is a break after it.
  if (previousHash !== head!.hash) return result(headSequence);
  return result(null);
}
