/**
 * The sync activity: one `scim_requests` row per request a directory's token opened (method, path
 * without its query, status, duration, a one-line summary; never the token or a body), and the
 * directory's `last_request_at`, moved at most once a second (one statement for both).
 */
import type { SqlRunner } from "../../db/sql.ts";

export interface LoggedRequest {
  directoryId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  summary: string;
  scimType: string | null;
}

const MAX_SUMMARY = 500;

/** Text as Postgres stores it: a NUL shown as `\0`, lone surrogates as U+FFFD (a summary quotes what the IdP sent). */
const storable = (text: string) => text.replace(/\u0000/g, "\\0").toWellFormed();
const MAX_PATH = 300;

export async function logScimRequest(sql: SqlRunner, entry: LoggedRequest): Promise<void> {
  await sql.query(
    `WITH logged AS (
       INSERT INTO scim_requests (directory_id, method, path, status, duration_ms, summary, scim_type)
       VALUES ($1::uuid, $2, $3, $4, $5, $6, $7) RETURNING 1
     )
     UPDATE directories SET last_request_at = now()
      WHERE id = $1::uuid AND (last_request_at IS NULL OR last_request_at < now() - interval '1 second')`,
    [
      entry.directoryId,
      entry.method,
      storable(entry.path.slice(0, MAX_PATH)),
      entry.status,
      Math.round(entry.durationMs),
      storable(entry.summary.slice(0, MAX_SUMMARY)),
      entry.scimType,
    ],
  );
}
