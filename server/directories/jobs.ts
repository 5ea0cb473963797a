/**
 * Periodic work of Directory Sync (server/jobs): the sync activity keeps 30 days
 * (`SCIM_REQUEST_RETENTION_DAYS`); older SCIM requests are deleted, oldest first, in batches so
 * that an initial sync's hundreds of thousands of rows never make one long-held delete.
 */
import type { SqlStatements } from "../db/sql.ts";
import { clock } from "../clock.ts";
import { HOUR, type Job, type JobContext } from "../jobs/job.ts";
import { SCIM_REQUEST_RETENTION_DAYS } from "./schemas.ts";

const BATCH = 5000;
const DAY_MS = 24 * HOUR;

/** Deletes the SCIM requests older than the retention; answers how many. */
export async function purgeOldScimRequests(sql: SqlStatements, context: Partial<JobContext> = {}): Promise<number> {
  const before = new Date(clock.now().getTime() - SCIM_REQUEST_RETENTION_DAYS * DAY_MS);
  const started = Date.now();
  let purged = 0;
  for (;;) {
    const rows = await sql.query<{ n: number }>(
      `WITH gone AS (
         DELETE FROM scim_requests WHERE id IN (
           SELECT id FROM scim_requests WHERE created_at < $1 ORDER BY created_at LIMIT ${BATCH})
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [before],
    );
    const n = rows[0]?.n ?? 0;
    purged += n;
    if (n < BATCH || context.signal?.aborted || (context.budgetMs !== undefined && Date.now() - started > context.budgetMs)) break;
  }
  return purged;
}

export const directoryJobs: Job[] = [
  {
    name: "directories.scim_requests_purge",
    every: HOUR,
    run: async (db, context) => ({ scim_requests_purged: await purgeOldScimRequests(db.sql, context) }),
  },
];
