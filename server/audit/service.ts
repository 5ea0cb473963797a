/** The audit log: list and read a tenant's events, its kinds, and append a tenant application's own. */
import type { Database } from "../db/client.ts";
import type { SqlRunner } from "../db/sql.ts";
import { keysetPage, type PageRequest } from "../db/keyset.ts";
import { isUuid } from "../db/ids.ts";
import { NotFound } from "../errors.ts";
import type { AppendedEventToEmit } from "../events/emit.ts";
import { appendManyToLog, appendToLog } from "./appender.ts";
import { parseIsoDate, type AppendAuditInput } from "./schemas.ts";
import {
  AUDIT_COLUMNS,
  chainHead,
  countEvents,
  findEvents,
  resolveFilter,
  type AuditFilterParams,
} from "./query.ts";
import type { AuditEventRow } from "../events/types.ts";

/** A page of the tenant's events matching the filters, newest first. */
export async function listEvents(sql: SqlRunner, tenantId: string, params: AuditFilterParams, page: PageRequest) {
  const head = await chainHead(sql, tenantId);
  const filter = resolveFilter(tenantId, params, head);
  return keysetPage<AuditEventRow>(page, {
    key: (row) => ({ at: new Date(row.timestamp), id: row.id }),
    count: () => countEvents(sql, filter, head),
    find: ({ after, order, skip, take }) => findEvents(sql, filter, { after, order, skip, take }),
  });
}

/** One event of the tenant; another tenant's event, or an id that is not one, is 404. */
export async function getEvent(sql: SqlRunner, tenantId: string, eventId: string): Promise<AuditEventRow> {
  const [row] = isUuid(eventId)
    ? await sql.query<AuditEventRow>(`SELECT ${AUDIT_COLUMNS} FROM audit_events e WHERE e.id = $1::uuid AND e.tenant_id = $2::uuid`, [
        eventId,
        tenantId,
      ])
    : [];
  if (!row) throw NotFound("Audit event");
  return row;
}

/** The kinds recorded in the tenant's log with their counts, by name (kept by the chain trigger). */
export async function eventTypes(sql: SqlRunner, tenantId: string) {
  const { kinds } = await chainHead(sql, tenantId);
  return {
    results: Object.keys(kinds)
      .sort()
      .map((event_type) => ({ event_type, count: kinds[event_type]! })),
  };
}

/** What the tenant's application sent, as an event to record in its log. */
function toEmit(tenantId: string, input: AppendAuditInput): AppendedEventToEmit {
  return {
    actor: {
      id: input.actor.id,
      email: input.actor.email ?? null,
      ip: input.metadata?.ip_address ?? null,
      userAgent: input.metadata?.user_agent ?? null,
    },
    event: {
      type: input.event_type,
      tenantId,
      target: input.target,
      details: input.details,
      timestamp: input.timestamp ? parseIsoDate(input.timestamp)! : undefined,
    },
  };
}

/**
 * Records an event sent by the tenant's own application. The actor, metadata and timestamp are
 * the application's account of what happened, stored as given; the API caller who appended it is
 * not written into the event (see README, "Appending events"). Concurrent appends to one tenant
 * share a transaction (see appender.ts).
 */
export async function appendEvent(db: Database, tenantId: string, input: AppendAuditInput): Promise<AuditEventRow> {
  return appendToLog(db, tenantId, toEmit(tenantId, input));
}

/** Records several events of the tenant's application: all or none, contiguous in the chain, in order. */
export async function appendEvents(db: Database, tenantId: string, inputs: AppendAuditInput[]): Promise<AuditEventRow[]> {
  return appendManyToLog(db, tenantId, inputs.map((input) => toEmit(tenantId, input)));
}
