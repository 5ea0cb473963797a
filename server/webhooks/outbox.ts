/**
 * The transactional outbox: `enqueueDeliveries` is an events subscriber (wired at start-up in
 * server/app/features.ts), so emitEvent runs it inside the event's transaction and
 * one delivery row per matching enabled webhook exists if and only if the event does. The body is
 * built once here and stored, so every attempt sends identical bytes. `pg_notify` (delivered only
 * on commit, to every instance listening) wakes the dispatchers for the first attempt.
 */
import type { EmittedEvent, EventTx } from "../events/emit.ts";
import { sourceOf, type AuditEventRow, type EventSource } from "../events/types.ts";
import { subscriptionsTo } from "./schemas.ts";

export const WAKE_CHANNEL = "webhook_deliveries_due";

export interface PayloadEvent {
  id: string;
  type: string;
  tenantId: string;
  createdAt: Date;
  actor: { id: string | null; email: string | null };
  /** With the target's `name` when the event captured one. */
  target: { type: string; id: string; name?: string | null } | null;
  details: Record<string, unknown>;
  /** Who wrote the audit event (`platform`, or `api` with the appending token); absent for the test event. */
  source?: EventSource | null;
}

/** The delivered body: `{"id","type","tenant_id","created_at","data":{actor,target,details,source}}`. */
export function payloadOf(event: PayloadEvent): string {
  const data = { actor: event.actor, target: event.target, details: event.details };
  return JSON.stringify({
    id: event.id,
    type: event.type,
    tenant_id: event.tenantId,
    created_at: event.createdAt.toISOString(),
    data: event.source === undefined ? data : { ...data, source: event.source },
  });
}

/**
 * A recorded event as its payload says it, from its stored row alone: what the outbox sends and the
 * Events API (server/audit/event-feed.ts) serves are the same bytes. `details` are the stored ones
 * (with the setup link that acted, when one did); a target's name only when one was recorded.
 */
export function payloadEventOf(row: AuditEventRow): PayloadEvent {
  return {
    id: row.id,
    type: row.event_type,
    tenantId: row.tenant_id ?? "",
    createdAt: row.timestamp,
    actor: { id: row.actor_id, email: row.actor_email },
    target:
      row.target_type === null || row.target_id === null
        ? null
        : { type: row.target_type, id: row.target_id, ...(row.target_name === null ? {} : { name: row.target_name }) },
    details: row.details,
    source: sourceOf(row),
  };
}

// One statement for all the events of a transaction (a batch of appends can be hundreds): each
// event joined with its tenant's enabled webhooks whose `events` name one of its subscriptions
// (subscriptionsTo: its kind, a prefix of it or `*`), sent comma-joined (kinds have no commas).
const ENQUEUE = `WITH d AS (
    INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_id, event_type, payload, next_attempt_at)
    SELECT w.tenant_id, w.id, v.event_id, v.event_type, v.payload, now()
    FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS v(tenant_id, event_id, event_type, payload, subscriptions, n)
    JOIN webhooks w ON w.tenant_id = v.tenant_id AND w.enabled AND w.events && string_to_array(v.subscriptions, ',')
    ORDER BY v.n
    RETURNING 1
  )
  SELECT n, CASE WHEN n > 0 THEN pg_notify('${WAKE_CHANNEL}', '')::text END AS notified
  FROM (SELECT count(*)::int AS n FROM d) c`;

/**
 * The events subscriber: writes the deliveries of a transaction's tenant events (in one
 * statement; platform events have no webhooks); returns how many there are.
 */
export async function enqueueDeliveries(tx: EventTx, emitted: EmittedEvent[]): Promise<number> {
  const events: PayloadEvent[] = emitted.flatMap(({ row }) => (row.tenant_id ? [payloadEventOf(row)] : []));
  if (!events.length) return 0;
  const rows = await tx.query<{ n: number }>(ENQUEUE, [
    events.map((e) => e.tenantId),
    events.map((e) => e.id),
    events.map((e) => e.type),
    events.map(payloadOf),
    events.map((e) => subscriptionsTo(e.type).join(",")),
  ]);
  return rows[0]?.n ?? 0;
}

/** One delivery to one webhook, outside any fan-out (the `webhook.test` event). */
export async function enqueueSingle(tx: EventTx, webhookId: string, event: PayloadEvent): Promise<string> {
  const rows = await tx.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_id, event_type, payload, next_attempt_at)
     VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5, now()) RETURNING id`,
    [event.tenantId, webhookId, event.id, event.type, payloadOf(event)],
  );
  await tx.query(`SELECT pg_notify('${WAKE_CHANNEL}', '')::text AS notified`);
  return rows[0]!.id;
}
