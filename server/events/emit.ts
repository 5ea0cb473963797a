/**
 * The one function that records what happened. Call it inside the transaction of the change it
 * describes, so the event exists if and only if the change does. Later issues extend it here
 * (hash chain for the audit log, outbox rows for webhooks), not at the call sites.
 */
import type { Tx } from "../db/client.ts";
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

export async function emitEvent(tx: Tx, actor: Actor, event: EventInput) {
  return tx.auditEvent.create({
    data: {
      tenantId: event.tenantId,
      eventType: event.type,
      actorId: actor.id,
      actorEmail: actor.email,
      ipAddress: actor.ip,
      userAgent: actor.userAgent,
      targetType: event.target?.type ?? null,
      targetId: event.target?.id ?? null,
      details: (event.details ?? {}) as object,
    },
  });
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
