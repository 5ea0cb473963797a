/**
 * The public event: what a recorded event says to the world outside, as webhooks deliver it, the
 * Events API serves it and a webhook's filter reads it. Its `data` is described per kind by the
 * event catalog (catalog/). One builder, so every surface sends the same bytes for one event.
 */
import { sourceOf, type AuditEventRow, type EventSource } from "./types.ts";

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
 * A recorded event as its payload says it, from its stored row alone: what the webhook outbox sends
 * and the Events API (server/audit/event-feed.ts) serves are the same bytes. `details` are the stored ones
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
