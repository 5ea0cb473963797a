/**
 * The delivery core (server/delivery/): items in a Postgres queue, each sent to its destination
 * by a sink, at least once. The core owns the claim and its lease, the retry schedule's
 * arithmetic, the attempts log, the destination's failure streak and its auto-disable, the group
 * commit of results and the dispatcher (LISTEN wake-ups, timers, a graceful stop). What an item
 * is and how it travels belong to its kind; the core imports no kind (server/webhooks/sink.ts is
 * the first one).
 *
 * A new kind (an audit log stream, operational notices) plugs in with:
 * 1. Its tables (one migration), shaped like the webhook ones: the items (`id`, `status` (pending,
 *    succeeded, failed: will retry, exhausted, cancelled), `attempt_count`, `next_attempt_at`,
 *    `locked_until`, `last_attempt_at`, `last_response_status`, `last_error`, `updated_at`, and a
 *    column naming the destination, `seq` bigserial: their order), with indexes on
 *    `next_attempt_at` and on (destination, `seq`) WHERE status IN ('pending', 'failed'); the
 *    attempts (`delivery_id`, `attempt`, `started_at`, `duration_ms`, `response_status`,
 *    `response_body`, `error`, `next_attempt_at`, `request_url`, `request_headers` jsonb, `response_headers` jsonb; unique on (delivery_id, attempt)); the
 *    destinations (`id`, `enabled`, `failing_since`, and their pace and order: `rate_limit_per_second`
 *    int null, `ordering` 'unordered' | 'ordered', `paced_until` timestamptz null; an index on `id`
 *    WHERE either is set).
 * 2. Items written in the transaction that makes them (an events subscriber, as the webhook
 *    outbox is) with `next_attempt_at = now()`, and `pg_notify` on its wake channel.
 * 3. `defineDeliveryKind`: the tables, the columns its sink reads of a claimed item, the sink
 *    (`send` one item, `classify` the answer), its retry schedule and how its destination is
 *    turned off (and said to be: an event).
 * 4. `startDispatcher(db, kind)` at start-up, `deliverDue(db, kind)` on the cron tick
 *    (dispatcher.ts, engine.ts), and, for metrics, a series in server/metrics.ts.
 * A batch (of audit events, say) is one item: the sink sends it whole and the core retries it whole.
 */
import type { Database } from "../db/client.ts";
import type { SqlRunner } from "../db/sql.ts";
import { log, errorFields } from "../log.ts";
import type { DeliverySeries } from "../metrics.ts";
import { statements, type DeliveryQueue, type Statements } from "./statements.ts";

export type { DeliveryQueue };

/** What the core reads of every claimed item, whatever its kind. */
export interface Claimed {
  id: string;
  attempt_count: number;
  destination_id: string;
  /** The destination's state when the item was claimed. */
  enabled: boolean;
  failing_since: Date | null;
  /** How long to wait before sending: its slot of a paced destination's rate (statements.ts), else 0. */
  wait_ms: number;
}

/** What one attempt sent and got back, as the attempts log keeps it. */
export interface Sent {
  /** The destination's answer code (an HTTP status), or null when no answer came. */
  status: number | null;
  /** The start of the answer (the sink decides how much). */
  body: string | null;
  /** Why no usable answer came (timeout, refused connection…), or null. */
  error: string | null;
  /** Where it went and how: never a secret (the sink redacts). */
  request: { url: string; headers: Record<string, string> };
  responseHeaders: Record<string, string> | null;
}

/** What an attempt's answer means, as the sink reads it. */
export type Verdict =
  | { outcome: "succeeded" }
  /** Retried after `retryAfter` seconds when the destination asked for it, else by the schedule. */
  | { outcome: "failed"; error: string; retryAfter: number | null }
  /** The destination refuses for good (410 Gone): it is turned off and what is due cancelled. */
  | { outcome: "gone"; reason: string };

/** The one success verdict (shared: no allocation per delivery). */
export const SUCCEEDED: Verdict = Object.freeze({ outcome: "succeeded" });

export interface Sink<Item, Result extends Sent> {
  /** One attempt. Throws only on a bug: a failed attempt is a result with an error. */
  send(item: Item): Promise<Result>;
  classify(result: Result): Verdict;
}

/** What to do once a transaction commits (mail a notice): run by the core, never awaited by the delivery. */
export type AfterCommit = (db: Database) => Promise<void>;

/** Runs a kind's after-commit work in the background: a failure is logged, never the delivery's. */
export function runAfterCommit(name: string, db: Database, after: AfterCommit | void): void {
  if (after) after(db).catch((error: unknown) => log.error(`${name} after-commit work failed`, errorFields(error)));
}

export interface DeliveryKindSpec<Row extends object, Result extends Sent> {
  /** Names the kind in log lines ("webhook dispatcher run failed") and its dispatcher. Unique. */
  name: string;
  /** Its attempt series in server/metrics.ts, if it has one. */
  series?: DeliverySeries;
  queue: DeliveryQueue;
  /** What the sink reads of a claimed item beyond `Claimed`: a RETURNING list over `d` (the item) and `dest` (its destination). */
  columns: string;
  sink: Sink<Claimed & Row, Result>;
  /** Seconds before each retry; after the last, an item is exhausted. Read at each failure. */
  retrySchedule(): readonly number[];
  /**
   * Optional: runs in the transaction that records items ending exhausted, after the record
   * statement (an event saying so); may return what to do once it commits.
   */
  exhausted?(tx: SqlRunner, itemIds: string[]): Promise<AfterCommit | void>;
  destination: {
    /** `last_error` of what is cancelled because the destination is off ("webhook disabled"). */
    disabledError: string;
    /** A destination whose every attempt failed for this long is turned off. */
    failingDaysBeforeDisable: number;
    /**
     * Turns the destination off with a reason, if it is still on, and records that it did (an
     * event). Runs first in the core's transaction, which then cancels what is still due; may
     * return what to do once it commits.
     */
    disable(tx: SqlRunner, item: Claimed & Row, reason: string): Promise<AfterCommit | void>;
  };
}

export interface DeliveryKind<Row extends object = object, Result extends Sent = Sent> extends DeliveryKindSpec<Row, Result> {
  /** Its queue's statements, built once. */
  readonly sql: Statements;
}

export function defineDeliveryKind<Row extends object, Result extends Sent = Sent>(
  spec: DeliveryKindSpec<Row, Result>,
): DeliveryKind<Row, Result> {
  return { ...spec, sql: statements(spec.queue, spec.columns) };
}
