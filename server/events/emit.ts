/**
 * The one function that records what happened. Call it inside the transaction of the change it
 * describes, so the event exists if and only if the change does. Later issues extend it here
 * (hash chain for the audit log, outbox rows for webhooks), not at the call sites.
 */
import type { Tx } from "../db/client.ts";
import type { SqlRunner } from "../db/sql.ts";
import type { Principal, RequestInfo } from "../auth/principal.ts";
import type { EventType } from "./types.ts";
import { enqueueDeliveries } from "../webhooks/outbox.ts";

export interface Actor {
  id: string | null;
  email: string | null;
  ip: string | null;
  userAgent: string | null;
}

export function actorOf(principal: Principal | null, request: RequestInfo): Actor {
  return {
    id: principal?.userId ?? null,
    email: principal?.email ?? null,
    ip: request.ip,
    userAgent: request.userAgent,
  };
}

export interface EventInput {
  /** One of EVENT_TYPES, or a tenant application's own kind (POST /tenants/{id}/audit). */
  type: EventType | (string & {});
  /** The tenant the event belongs to; null for a platform event outside any tenant. */
  tenantId: string | null;
  target?: { type: string; id: string };
  details?: Record<string, unknown>;
  /** When it happened, if not now (appended events may carry their own past timestamp). */
  timestamp?: Date;
}

/** What the database assigned: the event's id, time and place in its tenant's hash chain. */
export interface RecordedEvent {
  id: string;
  timestamp: Date;
  sequence: number;
}

/** A transaction to write in: Prisma's, or the plain-SQL runner's (hot paths use that). */
export type EventTx = Tx | SqlRunner;

/** An event as stored: every column of its audit_events row, chain fields included. */
export interface StoredEvent extends RecordedEvent {
  tenant_id: string | null;
  event_type: string;
  actor_id: string | null;
  actor_email: string | null;
  ip_address: string | null;
  user_agent: string | null;
  target_type: string | null;
  target_id: string | null;
  details: Record<string, unknown>;
  prev_hash: string;
  hash: string;
}

// sequence, prev_hash and hash are filled in by the audit_events_chain trigger, which locks the
// tenant's chain head until this transaction ends (see migration 20261122000000_audit_chain).
// Rows go in in the order given (ORDER BY ord), so each tenant's sequence follows that order.
const INSERT_EVENTS = `INSERT INTO audit_events
  (tenant_id, event_type, actor_id, actor_email, ip_address, user_agent, target_type, target_id, details, timestamp)
  SELECT v.tenant_id, v.event_type, v.actor_id, v.actor_email, v.ip_address, v.user_agent, v.target_type, v.target_id,
         v.details, coalesce(v.at, now())
  FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
              $9::jsonb[], $10::timestamptz[]) WITH ORDINALITY
       AS v(tenant_id, event_type, actor_id, actor_email, ip_address, user_agent, target_type, target_id, details, at, ord)
  ORDER BY v.ord
  RETURNING id, tenant_id, event_type, actor_id, actor_email, ip_address, user_agent, target_type, target_id, details,
            timestamp, sequence::int AS sequence, prev_hash, hash`;

export interface EventToEmit {
  actor: Actor;
  event: EventInput;
}

/**
 * Records several events in one statement (appends batched by the audit appender), in the order
 * given; returns them stored, in that order. Same guarantees as emitEvent.
 */
export async function emitEvents(tx: EventTx, items: EventToEmit[]): Promise<StoredEvent[]> {
  if (!items.length) return [];
  const column = <T>(pick: (item: EventToEmit) => T) => items.map(pick);
  const values = [
    column((i) => i.event.tenantId),
    column((i) => i.event.type),
    column((i) => i.actor.id),
    column((i) => i.actor.email),
    column((i) => i.actor.ip),
    column((i) => i.actor.userAgent),
    column((i) => i.event.target?.type ?? null),
    column((i) => i.event.target?.id ?? null),
    column((i) => JSON.stringify(i.event.details ?? {})),
    column((i) => i.event.timestamp?.toISOString() ?? null),
  ];
  const rows =
    "query" in tx && typeof tx.query === "function"
      ? await tx.query<StoredEvent>(INSERT_EVENTS, values)
      : await (tx as Tx).$queryRawUnsafe<StoredEvent[]>(INSERT_EVENTS, ...values);
  // RETURNING order is not promised; within a tenant, sequence order is the order given.
  const byTenant = new Map<string | null, StoredEvent[]>();
  for (const row of [...rows].sort((a, b) => a.sequence - b.sequence)) {
    const list = byTenant.get(row.tenant_id);
    if (list) list.push(row);
    else byTenant.set(row.tenant_id, [row]);
  }
  const taken = new Map<string | null, number>();
  const stored = items.map(({ event }) => {
    const at = taken.get(event.tenantId) ?? 0;
    taken.set(event.tenantId, at + 1);
    return byTenant.get(event.tenantId)![at]!;
  });
  // The webhook outbox: one delivery per matching enabled webhook, in this same transaction.
  await enqueueDeliveries(
    tx,
    items.flatMap(({ actor, event }, index) =>
      event.tenantId
        ? [
            {
              id: stored[index]!.id,
              type: event.type,
              tenantId: event.tenantId,
              createdAt: stored[index]!.timestamp,
              actor: { id: actor.id, email: actor.email },
              target: event.target ?? null,
              details: event.details ?? {},
            },
          ]
        : [],
    ),
  );
  return stored;
}

export async function emitEvent(tx: EventTx, actor: Actor, event: EventInput): Promise<RecordedEvent> {
  const [stored] = await emitEvents(tx, [{ actor, event }]);
  return { id: stored!.id, timestamp: stored!.timestamp, sequence: stored!.sequence };
}

/**
 * An event about a user rather than one tenant (sign-in, step-up, an unscoped API token): recorded
 * in each tenant the user belongs to, so every tenant's audit log shows it, or once as a platform
 * event when the user belongs to none.
 */
export async function emitForUser(tx: Tx, actor: Actor, userId: string | null, event: Omit<EventInput, "tenantId">) {
  // In tenant-id order: every transaction takes chain-head locks in the same order (no deadlocks).
  const memberships = userId
    ? await tx.membership.findMany({ where: { userId }, select: { tenantId: true }, orderBy: { tenantId: "asc" } })
    : [];
  const tenantIds = memberships.length ? memberships.map((m) => m.tenantId) : [null];
  for (const tenantId of tenantIds) await emitEvent(tx, actor, { ...event, tenantId });
}
