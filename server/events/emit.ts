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
  tenantId: string;
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
