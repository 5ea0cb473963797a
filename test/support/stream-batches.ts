/**
 * Log-stream batches made of real audit events: appended to a fresh tenant's chain over the REST
 * API (so sequence, prev_hash and hash are the database's), a digest signed over them when asked,
 * and read back as the audit API presents them (presentEvent), in sequence order.
 */
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { database } from "../../server/db/client.ts";
import { AUDIT_COLUMNS, presentEvent } from "../../server/audit/query.ts";
import type { AuditEventRow } from "../../server/events/types.ts";
import type { AuditDigest } from "../../server/audit/digest-schemas.ts";
import type { StreamBatch } from "../../server/log-streams/sinks/types.ts";
import { client, tenantWithMembers } from "./fixtures.ts";

export interface BatchOptions {
  events: number;
  /** Bytes of filler in each event's details (to reach an intake's size limits). */
  detailsBytes?: number;
  /** Sign a digest after the events (it rides with the batch). */
  digest?: boolean;
  eventType?: string;
}

/** Appends `events` events to a new tenant and returns them as one batch (the whole chain). */
export async function auditBatch(apiUrl: string, options: BatchOptions): Promise<StreamBatch> {
  const world = await tenantWithMembers();
  const admin = client(apiUrl, world.admin.token);
  const base = `/api/v1/tenants/${world.tenant.id}/audit`;
  const filler = "x".repeat(options.detailsBytes ?? 0);
  // Requests stay under the API's 1 MiB body limit.
  const perRequest = Math.max(1, Math.min(1000, Math.floor(800_000 / (filler.length + 500))));
  for (let from = 0; from < options.events; from += perRequest) {
    const count = Math.min(perRequest, options.events - from);
    const res = await admin.post(`${base}/batch`, {
      events: Array.from({ length: count }, (_, i) => ({
        event_type: options.eventType ?? "invoice.paid",
        actor: { id: `billing-${from + i}`, email: "billing@example.com" },
        target: { type: "invoice", id: `inv-${from + i}`, name: `Invoice "${from + i}" [q]` },
        details: { n: from + i, quote: 'a "quoted" \\ value ] here', ...(filler ? { filler } : {}) },
      })),
    });
    expect(res.status, res.text).toBe(201);
  }
  let digest: AuditDigest | null = null;
  if (options.digest) {
    const res = await admin.post(`${base}/digests`);
    expect(res.status, res.text).toBe(201);
    digest = res.json as AuditDigest;
  }
  const { sql } = await database();
  const rows = await sql.query<AuditEventRow>(
    `SELECT ${AUDIT_COLUMNS} FROM audit_events e WHERE e.tenant_id = $1::uuid ORDER BY e.sequence`,
    [world.tenant.id],
  );
  const events = rows.map(presentEvent);
  return {
    stream_id: randomUUID(),
    tenant_id: world.tenant.id,
    from_sequence: events[0]?.sequence ?? 0,
    to_sequence: events.at(-1)?.sequence ?? 0,
    events,
    digest,
    test: false,
  };
}
