/**
 * Hands deliveries back to the queue: a stopping instance clears the lease on rows it claimed but
 * did not start, and wakes every dispatcher (pg_notify, delivered on commit), so another instance
 * sends them now rather than when the lease would have run out.
 */
import type { Database } from "../db/client.ts";
import { WAKE_CHANNEL } from "./outbox.ts";

// Only rows still leased and waiting: the lease is ours until it runs out, so no other instance
// holds them, and a row the recorder has already written is not touched.
const RELEASE = `WITH r AS (
    UPDATE webhook_deliveries SET locked_until = NULL
    WHERE id = ANY($1::uuid[]) AND status IN ('pending', 'failed') AND locked_until > now()
    RETURNING 1
  )
  SELECT n, CASE WHEN n > 0 THEN pg_notify('${WAKE_CHANNEL}', '')::text END AS notified
  FROM (SELECT count(*)::int AS n FROM r) c`;

/** Releases these claimed, unsent deliveries; returns how many were released. */
export async function releaseClaims(db: Database, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  const rows = await db.sql.query<{ n: number }>(RELEASE, [ids]);
  return rows[0]?.n ?? 0;
}
