/**
 * The transactional outbox: `enqueueDeliveries` is an events subscriber (wired at start-up in
 * server/app/features.ts), so emitEvent runs it inside the event's transaction and
 * one delivery row per matching enabled webhook exists if and only if the event does. The body (the
 * event's public payload, server/events/payload.ts) is built once here and stored, so every attempt
 * sends identical bytes. `pg_notify` (delivered only
 * on commit, to every instance listening) wakes the dispatchers for the first attempt.
 */
import type { EmittedEvent, EventTx } from "../events/emit.ts";
import { payloadEventOf, payloadOf, type PayloadEvent } from "../events/payload.ts";
import { subscriptionsTo } from "../events/schemas.ts";
import { countWebhookFilterErrors } from "../metrics.ts";
import { evaluateFilter, type FilterPayload } from "./filter.ts";
import { NOTICE_KINDS } from "../events/catalog/notices.ts";

export const WAKE_CHANNEL = "webhook_deliveries_due";

const NOTICES: ReadonlySet<string> = new Set(NOTICE_KINDS);

// One statement for all the events of a transaction (a batch of appends can be hundreds): each
// event joined with its tenant's enabled webhooks whose `events` name one of its subscriptions
// (subscriptionsTo: its kind, a prefix of it or `*`), sent comma-joined (kinds have no commas),
// but a notice about a webhook (NOTICE_KINDS) never to that webhook (`skip_webhook`).
// Webhooks without a filter get their deliveries here; those with one come back as candidates
// (webhook, event's index, filter), evaluated here and inserted by a second statement only if any.
const ENQUEUE = `WITH v AS (
    SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::uuid[]) WITH ORDINALITY
      AS v(tenant_id, event_id, event_type, payload, subscriptions, skip_webhook, i)
  ), m AS (
    SELECT w.tenant_id, w.id, w.filter, v.event_id, v.event_type, v.payload, v.i
    FROM v JOIN webhooks w ON w.tenant_id = v.tenant_id AND w.enabled AND w.events && string_to_array(v.subscriptions, ',')
      AND w.id IS DISTINCT FROM v.skip_webhook
  ), d AS (
    INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_id, event_type, payload, next_attempt_at)
    SELECT tenant_id, id, event_id, event_type, payload, now() FROM m WHERE filter IS NULL ORDER BY i
    RETURNING 1
  )
  SELECT n, CASE WHEN n > 0 THEN pg_notify('${WAKE_CHANNEL}', '')::text END AS notified,
    (SELECT json_agg(json_build_object('webhook_id', id, 'i', i, 'filter', filter) ORDER BY i) FROM m WHERE filter IS NOT NULL) AS filtered
  FROM (SELECT count(*)::int AS n FROM d) c`;

// In the matches' order (events' order): unnest WITH ORDINALITY, inserted in that order (seq).
const ENQUEUE_FILTERED = `WITH d AS (
    INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_id, event_type, payload, next_attempt_at)
    SELECT tenant_id, webhook_id, event_id, event_type, payload, now()
    FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[]) WITH ORDINALITY
      AS f(tenant_id, webhook_id, event_id, event_type, payload, n)
    ORDER BY n
    RETURNING 1
  )
  SELECT n, CASE WHEN n > 0 THEN pg_notify('${WAKE_CHANNEL}', '')::text END AS notified
  FROM (SELECT count(*)::int AS n FROM d) c`;

interface Candidate {
  webhook_id: string;
  /** 1-based index of the event in the statement's arrays. */
  i: number;
  filter: string;
}

/**
 * The events subscriber: writes the deliveries of a transaction's tenant events (in one
 * statement; platform events have no webhooks); returns how many there are.
 */
export async function enqueueDeliveries(tx: EventTx, emitted: EmittedEvent[]): Promise<number> {
  const events: PayloadEvent[] = emitted.flatMap(({ row }) => (row.tenant_id ? [payloadEventOf(row)] : []));
  if (!events.length) return 0;
  const payloads = events.map(payloadOf);
  const rows = await tx.query<{ n: number; filtered: Candidate[] | null }>(ENQUEUE, [
    events.map((e) => e.tenantId),
    events.map((e) => e.id),
    events.map((e) => e.type),
    payloads,
    events.map((e) => subscriptionsTo(e.type).join(",")),
    events.map((e) => (NOTICES.has(e.type) && e.target?.type === "webhook" ? e.target.id : null)),
  ]);
  const n = rows[0]?.n ?? 0;
  const filtered = rows[0]?.filtered;
  return filtered?.length ? n + (await enqueueFiltered(tx, events, payloads, filtered)) : n;
}

/** The deliveries of webhooks with a filter: each event evaluated against each filter (compiled once per process). */
async function enqueueFiltered(tx: EventTx, events: PayloadEvent[], payloads: string[], candidates: Candidate[]): Promise<number> {
  const parsed = new Map<number, FilterPayload>();
  const matched: { webhookId: string; index: number }[] = [];
  let errors = 0;
  for (const { webhook_id, i, filter } of candidates) {
    const index = i - 1;
    let payload = parsed.get(index);
    if (!payload) parsed.set(index, (payload = JSON.parse(payloads[index]!) as FilterPayload));
    const outcome = evaluateFilter(filter, payload);
    if (outcome.error) errors += 1;
    if (outcome.matches) matched.push({ webhookId: webhook_id, index });
  }
  if (errors) countWebhookFilterErrors(errors);
  if (!matched.length) return 0;
  const rows = await tx.query<{ n: number }>(ENQUEUE_FILTERED, [
    matched.map((m) => events[m.index]!.tenantId),
    matched.map((m) => m.webhookId),
    matched.map((m) => events[m.index]!.id),
    matched.map((m) => events[m.index]!.type),
    matched.map((m) => payloads[m.index]!),
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
