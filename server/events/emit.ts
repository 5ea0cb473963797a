/**
 * The one function that records what happened. Call it inside the transaction of the change it
 * describes, so the event exists if and only if the change does. Later issues extend it here
 * (hash chain for the audit log, outbox rows for webhooks), not at the call sites.
 */
import type { Tx } from "../db/client.ts";
import type { SqlRunner } from "../db/sql.ts";
import type { Principal, RequestInfo } from "../auth/principal.ts";
import type { EventType } from "./types.ts";

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
  type: EventType;
  /** The tenant the event belongs to; null for a platform event outside any tenant. */
  tenantId: string | null;
  target?: { type: string; id: string };
  details?: Record<string, unknown>;
}

/** A transaction to write in: Prisma's, or the plain-SQL runner's (hot paths use that). */
export type EventTx = Tx | SqlRunner;

const INSERT_EVENT = `INSERT INTO audit_events
  (tenant_id, event_type, actor_id, actor_email, ip_address, user_agent, target_type, target_id, details)
  VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)`;

export async function emitEvent(tx: EventTx, actor: Actor, event: EventInput): Promise<void> {
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
  ];
  if ("query" in tx && typeof tx.query === "function") await tx.query(INSERT_EVENT, values);
  else await (tx as Tx).$executeRawUnsafe(INSERT_EVENT, ...values);
}

/**
 * An event about a user rather than one tenant (sign-in, step-up, an unscoped API token): recorded
 * in each tenant the user belongs to, so every tenant's audit log shows it, or once as a platform
 * event when the user belongs to none.
 */
export async function emitForUser(tx: Tx, actor: Actor, userId: string | null, event: Omit<EventInput, "tenantId">) {
  const memberships = userId ? await tx.membership.findMany({ where: { userId }, select: { tenantId: true } }) : [];
  const tenantIds = memberships.length ? memberships.map((m) => m.tenantId) : [null];
  for (const tenantId of tenantIds) await emitEvent(tx, actor, { ...event, tenantId });
}
