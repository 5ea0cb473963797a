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

// sequence, prev_hash and hash are filled in by the audit_events_chain trigger, which locks the
// tenant's chain head until this transaction ends (see migration 20261122000000_audit_chain).
const INSERT_EVENT = `INSERT INTO audit_events
  (tenant_id, event_type, actor_id, actor_email, ip_address, user_agent, target_type, target_id, details, timestamp)
  VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, coalesce($10::timestamptz, now()))
  RETURNING id, timestamp, sequence::int AS sequence`;

export async function emitEvent(tx: EventTx, actor: Actor, event: EventInput): Promise<RecordedEvent> {
  const values = [
    event.tenantId,
    event.type,
    actor.id,
    actor.email,
    actor.ip,
    actor.userAgent,
    event.target?.type ?? null,
    event.target?.id ?? null,
    JSON.stringify(event.details ?? {}),
    event.timestamp?.toISOString() ?? null,
  ];
  const rows =
    "query" in tx && typeof tx.query === "function"
      ? await tx.query<RecordedEvent>(INSERT_EVENT, values)
      : await (tx as Tx).$queryRawUnsafe<RecordedEvent[]>(INSERT_EVENT, ...values);
  const recorded = rows[0]!;
  // The webhook outbox: one delivery per matching enabled webhook, in this same transaction.
  if (event.tenantId) {
    await enqueueDeliveries(tx, {
      id: recorded.id,
      type: event.type,
      tenantId: event.tenantId,
      createdAt: recorded.timestamp,
      actor: { id: actor.id, email: actor.email },
      target: event.target ?? null,
      details: event.details ?? {},
    });
  }
  return recorded;
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
