/**
 * Delivery core: the SQL of one queue, built once per kind from its tables' names (the tables'
 * shape is in kind.ts). The core owns these statements; a kind only names its tables and the
 * columns its sink reads. In every statement `d` is an item of the queue and `dest` its destination.
 */

/** The tables of a kind's queue (kind.ts lists the columns each must have). */
export interface DeliveryQueue {
  /** The items, one row per thing to deliver (`webhook_deliveries`). */
  items: string;
  /** One row per attempt of an item (`webhook_attempts`), unique on (delivery_id, attempt). */
  attempts: string;
  /** Where items go (`webhooks`): switched off by the core when they keep failing. */
  destinations: string;
  /** The items' column naming their destination (`webhook_id`). */
  destinationKey: string;
  /** Notified (pg_notify, on commit) when items fall due, and LISTENed by the dispatchers. */
  wakeChannel: string;
}

// Names go into SQL text: only plain identifiers (optionally schema-qualified), never anything
// that could close a quote or a statement.
const IDENTIFIER = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;

export type Statements = ReturnType<typeof statements>;

/** How far ahead of now a paced destination's slots are handed out (the engine waits for each). */
export const PACE_LOOKAHEAD_MS = 100;

/** `columns`: what the kind's sink reads of a claimed item, a RETURNING list over `d` and `dest`. */
export function statements(queue: DeliveryQueue, columns: string) {
  for (const name of Object.values(queue)) {
    if (!IDENTIFIER.test(name)) throw new Error(`delivery queue: ${JSON.stringify(name)} is not a plain SQL identifier`);
  }
  const { items, attempts, destinations, destinationKey: key, wakeChannel } = queue;
  const due = `status IN ('pending', 'failed')`;
  // Destinations with a pace or an order are claimed one by one (`controlled`); the others' items
  // take the plain path, which only skips the controlled ones' items (a hashed set, usually empty).
  const controlled = (dest: string) => `(${dest}.rate_limit_per_second IS NOT NULL OR ${dest}.ordering = 'ordered')`;
  const free = `${key} NOT IN (SELECT id FROM ${destinations} c WHERE ${controlled("c")})`;
  const claimable = (item: string) =>
    `${item}.${due} AND ${item}.next_attempt_at <= now() AND (${item}.locked_until IS NULL OR ${item}.locked_until <= now())`;
  // A destination's head: its oldest item still due or waiting for a retry, in event order.
  const head = (dest: string) => `(SELECT h.id FROM ${items} h WHERE h.${key} = ${dest} AND h.${due} ORDER BY h.seq LIMIT 1)`;
  return {
    // Two lanes in one statement. Plain: the earliest due items of destinations without pace or
    // order. Controlled: each such destination with something due is locked (SKIP LOCKED: one
    // claimer per destination at a time, across instances), then gives its ordered head (only
    // when nothing of it is in flight) or its paced slots: items in event order, slot i at
    // max(paced_until, now()) + i/rate, those within PACE_LOOKAHEAD_MS of now, paced_until moved
    // past the last. `wait_ms` says how long the engine waits before sending (0 off the pace).
    // Slots are read on clock_timestamp(), not now() (the statement's start): a claim that took a
    // while under load must not hand out slots already past, which would go out in a burst.
    // A disabled destination is neither paced nor ordered: its items are only cancelled.
    // An UPDATE returns its rows in no particular order: the last SELECT hands them to the senders
    // by their wait, then oldest due first (a recover's re-sends are staggered to be claimed in order).
    /** $1 batch size, $2 lease (ms). */
    claim: `WITH ctl AS (
    SELECT dest.id, CASE WHEN dest.enabled THEN dest.rate_limit_per_second END AS rate,
      dest.enabled AND dest.ordering = 'ordered' AS ordered, greatest(dest.paced_until, clock_timestamp()) AS base
    FROM ${destinations} dest
    WHERE ${controlled("dest")}
      AND (dest.paced_until IS NULL OR dest.paced_until <= clock_timestamp() + ${PACE_LOOKAHEAD_MS} * interval '1 millisecond')
      AND EXISTS (SELECT 1 FROM ${items} q WHERE q.${key} = dest.id AND ${claimable("q")}
        AND (dest.ordering <> 'ordered' OR NOT dest.enabled OR q.id = ${head("dest.id")}))
    FOR NO KEY UPDATE OF dest SKIP LOCKED
  ), picked AS (
    SELECT p.id, c.id AS dest_id, c.rate, c.base, row_number() OVER (PARTITION BY c.id ORDER BY p.seq) - 1 AS slot
    FROM ctl c CROSS JOIN LATERAL (
      SELECT q.id, q.seq FROM ${items} q
      WHERE q.${key} = c.id AND ${claimable("q")}
        AND (NOT c.ordered OR q.id = ${head("c.id")})
      ORDER BY q.seq
      LIMIT CASE WHEN c.ordered THEN 1 WHEN c.rate IS NULL THEN $1
        ELSE least($1, floor(extract(epoch FROM clock_timestamp() - c.base) * c.rate + ${PACE_LOOKAHEAD_MS / 1000} * c.rate)::int + 1) END
      FOR UPDATE OF q SKIP LOCKED) p
  ), paced AS (
    UPDATE ${destinations} dest SET paced_until = c.base + n.taken * interval '1 second' / c.rate
    FROM (SELECT dest_id, count(*) AS taken FROM picked GROUP BY dest_id) n JOIN ctl c ON c.id = n.dest_id
    WHERE dest.id = n.dest_id AND c.rate IS NOT NULL
  ), plain AS (
    SELECT id, 0::float8 AS wait_ms FROM ${items} d
    WHERE ${claimable("d")} AND ${free}
    ORDER BY next_attempt_at
    LIMIT $1
    FOR UPDATE SKIP LOCKED
  ), claimed AS (
    SELECT id, wait_ms FROM plain
    UNION ALL
    SELECT id, CASE WHEN rate IS NULL THEN 0 ELSE greatest(0, extract(epoch FROM base + slot * interval '1 second' / rate - clock_timestamp()) * 1000) END::float8
    FROM picked
  ), taken AS (
    UPDATE ${items} d SET locked_until = now() + $2 * interval '1 millisecond'
    FROM claimed c, ${destinations} dest
    WHERE d.id = c.id AND dest.id = d.${key}
    RETURNING d.next_attempt_at AS due_at, d.id, d.attempt_count, d.${key} AS destination_id, dest.enabled, dest.failing_since, c.wait_ms, ${columns}
  )
  SELECT * FROM taken ORDER BY wait_ms, due_at`,

    /** $1 item, $2 error: claimed while its destination was off. */
    cancel: `UPDATE ${items} SET status = 'cancelled', next_attempt_at = NULL, locked_until = NULL, last_error = $2 WHERE id = $1::uuid`,

    // One statement for a group of attempts: the attempt rows, the items' next states, and each
    // destination's failure streak (cleared by a success, started by the first failure after it;
    // written only when it changes). Recording in groups makes one commit serve many items.
    record: `WITH r AS (
    SELECT * FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::text[], $8::timestamptz[], $9::text[], $10::uuid[],
        $11::text[], $12::text[], $13::text[])
      AS r(id, attempt, started_at, duration_ms, response_status, response_body, error, next_attempt_at, status, destination_id,
        request_url, request_headers, response_headers)
  ), a AS (
    INSERT INTO ${attempts} (delivery_id, attempt, started_at, duration_ms, response_status, response_body, error, next_attempt_at,
      request_url, request_headers, response_headers)
    SELECT id, attempt, started_at, duration_ms, response_status, response_body, error, next_attempt_at,
      request_url, request_headers::jsonb, response_headers::jsonb FROM r
    ON CONFLICT (delivery_id, attempt) DO NOTHING
  ), s AS (
    SELECT destination_id, max(started_at) FILTER (WHERE status = 'succeeded') AS last_ok FROM r GROUP BY destination_id
  ), f AS (
    SELECT s.destination_id, s.last_ok,
      min(r.started_at) FILTER (WHERE r.status <> 'succeeded' AND (s.last_ok IS NULL OR r.started_at > s.last_ok)) AS first_fail
    FROM s JOIN r USING (destination_id) GROUP BY s.destination_id, s.last_ok
  ), streak AS (
    UPDATE ${destinations} dest SET failing_since = CASE WHEN f.last_ok IS NULL THEN coalesce(dest.failing_since, f.first_fail) ELSE f.first_fail END
    FROM f
    WHERE dest.id = f.destination_id
      AND dest.failing_since IS DISTINCT FROM (CASE WHEN f.last_ok IS NULL THEN coalesce(dest.failing_since, f.first_fail) ELSE f.first_fail END)
  )
  UPDATE ${items} d SET status = r.status, attempt_count = r.attempt, next_attempt_at = r.next_attempt_at, locked_until = NULL,
    last_attempt_at = r.started_at, last_response_status = r.response_status, last_error = r.error, updated_at = now()
  FROM r WHERE d.id = r.id`,

    // Only rows still leased and waiting: the lease is ours until it runs out, so no other instance
    // holds them, and a row the recorder has already written is not touched.
    /** $1 items: claimed by a stopping instance and not started. */
    release: `WITH r AS (
    UPDATE ${items} SET locked_until = NULL
    WHERE id = ANY($1::uuid[]) AND ${due} AND locked_until > now()
    RETURNING 1
  )
  SELECT n, CASE WHEN n > 0 THEN pg_notify('${wakeChannel}', '')::text END AS notified
  FROM (SELECT count(*)::int AS n FROM r) c`,

    // The free lane's earliest, and each controlled destination's: its ordered head's time, or
    // its earliest due item's, not before its next slot (less the lookahead).
    nextDue: `SELECT min(at) AS at FROM (
    (SELECT next_attempt_at AS at FROM ${items} WHERE ${due} AND ${free} ORDER BY next_attempt_at LIMIT 1)
    UNION ALL
    SELECT greatest(q.at, dest.paced_until - ${PACE_LOOKAHEAD_MS} * interval '1 millisecond') FROM ${destinations} dest
    CROSS JOIN LATERAL (
      SELECT CASE WHEN dest.ordering = 'ordered' AND dest.enabled
        THEN (SELECT next_attempt_at FROM ${items} WHERE id = ${head("dest.id")})
        ELSE (SELECT min(h.next_attempt_at) FROM ${items} h WHERE h.${key} = dest.id AND h.${due}) END AS at) q
    WHERE ${controlled("dest")} AND q.at IS NOT NULL
  ) t`,

    /** The attempt that made the destination refuse for good, in the transaction that turns it off. */
    goneAttempt: `INSERT INTO ${attempts} (delivery_id, attempt, started_at, duration_ms, response_status, response_body, error,
           request_url, request_headers, response_headers)
         VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb) ON CONFLICT (delivery_id, attempt) DO NOTHING`,
    /** $1 item, $2 attempt number, $3 started at, $4 answer code, $5 error. */
    goneItem: `UPDATE ${items} SET status = 'cancelled', attempt_count = $2, next_attempt_at = NULL, locked_until = NULL,
           last_attempt_at = $3, last_response_status = $4, last_error = $5, updated_at = now() WHERE id = $1::uuid`,
    /** $1 destination, $2 error: what is still due for a destination turned off. */
    cancelDue: `UPDATE ${items} SET status = 'cancelled', next_attempt_at = NULL, locked_until = NULL, last_error = $2, updated_at = now()
       WHERE ${key} = $1::uuid AND ${due}`,
  };
}
