/**
 * Records attempts for the engine (engine.ts): the attempt rows (with the request sent, signatures
 * redacted, and the response headers kept), the deliveries' next states and each webhook's failure
 * streak, a group of attempts per statement.
 */
import type { Database } from "../db/client.ts";

// One statement for a group of attempts: the attempt rows, the deliveries' next states, and each
// webhook's failure streak (cleared by a success, started by the first failure after it; written
// only when it changes). Recording in groups makes one commit serve many deliveries.
const RECORD = `WITH r AS (
    SELECT * FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::text[], $8::timestamptz[], $9::text[], $10::uuid[],
        $11::text[], $12::text[], $13::text[])
      AS r(id, attempt, started_at, duration_ms, response_status, response_body, error, next_attempt_at, status, webhook_id,
        request_url, request_headers, response_headers)
  ), a AS (
    INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, response_status, response_body, error, next_attempt_at,
      request_url, request_headers, response_headers)
    SELECT id, attempt, started_at, duration_ms, response_status, response_body, error, next_attempt_at,
      request_url, request_headers::jsonb, response_headers::jsonb FROM r
    ON CONFLICT (delivery_id, attempt) DO NOTHING
  ), s AS (
    SELECT webhook_id, max(started_at) FILTER (WHERE status = 'succeeded') AS last_ok FROM r GROUP BY webhook_id
  ), f AS (
    SELECT s.webhook_id, s.last_ok,
      min(r.started_at) FILTER (WHERE r.status <> 'succeeded' AND (s.last_ok IS NULL OR r.started_at > s.last_ok)) AS first_fail
    FROM s JOIN r USING (webhook_id) GROUP BY s.webhook_id, s.last_ok
  ), w AS (
    UPDATE webhooks w SET failing_since = CASE WHEN f.last_ok IS NULL THEN coalesce(w.failing_since, f.first_fail) ELSE f.first_fail END
    FROM f
    WHERE w.id = f.webhook_id
      AND w.failing_since IS DISTINCT FROM (CASE WHEN f.last_ok IS NULL THEN coalesce(w.failing_since, f.first_fail) ELSE f.first_fail END)
  )
  UPDATE webhook_deliveries d SET status = r.status, attempt_count = r.attempt, next_attempt_at = r.next_attempt_at, locked_until = NULL,
    last_attempt_at = r.started_at, last_response_status = r.response_status, last_error = r.error, updated_at = now()
  FROM r WHERE d.id = r.id`;

export interface Attempted {
  id: string;
  number: number;
  startedAt: Date;
  durationMs: number;
  status: number | null;
  body: string | null;
  error: string | null;
  next: Date | null;
  outcome: "succeeded" | "failed" | "exhausted";
  webhookId: string;
  requestUrl: string;
  /** Signatures redacted (signing.ts). */
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string> | null;
}

/**
 * Group commit: the first attempt to finish is written at once; those finishing while a write is
 * in flight are written together by the next one. Each caller learns when its own row is written.
 */
export function recorder(db: Database) {
  let waiting: { entry: Attempted; done: (error?: unknown) => void }[] = [];
  let writing = false;
  const write = async (entries: Attempted[]) => {
    const column = <K extends keyof Attempted>(key: K) => entries.map((e) => e[key]);
    const values = [
      column("id"),
      column("number"),
      column("startedAt"),
      column("durationMs"),
      column("status"),
      column("body"),
      column("error"),
      column("next"),
      column("outcome"),
      column("webhookId"),
      column("requestUrl"),
      entries.map((e) => JSON.stringify(e.requestHeaders)),
      entries.map((e) => (e.responseHeaders ? JSON.stringify(e.responseHeaders) : null)),
    ];
    try {
      await db.sql.query(RECORD, values);
    } catch (error) {
      // Two instances changing several webhooks' streaks in opposite orders: run it again.
      if ((error as { code?: string }).code !== "40P01") throw error;
      await db.sql.query(RECORD, values);
    }
  };
  const drain = async () => {
    writing = true;
    while (waiting.length) {
      const group = waiting;
      waiting = [];
      try {
        await write(group.map((g) => g.entry));
        for (const g of group) g.done();
      } catch (error) {
        for (const g of group) g.done(error);
      }
    }
    writing = false;
  };
  return (entry: Attempted) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ entry, done: (error) => (error ? reject(error) : resolve()) });
      if (!writing) void drain();
    });
}
