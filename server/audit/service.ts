/** The audit log: list and read a tenant's events, its kinds, and append a tenant application's own. */
import type { TenantServiceContext } from "../service-context.ts";
import type { SqlRunner } from "../db/sql.ts";
import { keysetPage, type PageRequest } from "../db/keyset.ts";
import { isUuid } from "../db/ids.ts";
import { InvalidField, NotFound } from "../errors.ts";
import type { AppendedEventToEmit } from "../events/emit.ts";
import type { AuditEventRow } from "../events/types.ts";
import { appendManyToLog, appendToLog } from "./appender.ts";
import { parseIsoDate, type AppendAuditInput, type AuditEvent } from "./schemas.ts";
import { AUDIT_COLUMNS, chainHead, countEvents, findEvents, presentEvent, resolveFilter, type AuditFilterParams } from "./query.ts";
import { withActorNames } from "./actors.ts";

/** A page's rows as events, with what acted in words (one lookup for the page, actors.ts). */
export async function presentPage<P extends { items: AuditEventRow[] }>(
  sql: SqlRunner,
  page: P,
): Promise<Omit<P, "items"> & { items: AuditEvent[] }> {
  return { ...page, items: await withActorNames(sql, page.items, page.items.map(presentEvent)) };
}

/** A page of the tenant's events matching the filters, newest first (`page` from the query's limit and cursor). */
export async function listEvents(ctx: TenantServiceContext, input: AuditFilterParams & { page: PageRequest }) {
  const { sql } = ctx.db;
  const head = await chainHead(sql, ctx.tenantId);
  const filter = resolveFilter(ctx.tenantId, input, head);
  const page = await keysetPage<AuditEventRow>(input.page, {
    key: (row) => ({ at: new Date(row.timestamp), id: row.id }),
    count: () => countEvents(sql, filter, head),
    find: ({ after, order, skip, take }) => findEvents(sql, filter, { after, order, skip, take }),
  });
  return presentPage(sql, page);
}

/** One event of the tenant; another tenant's event, or an id that is not one, is 404. */
export async function getEvent(ctx: TenantServiceContext, input: { event_id: string }): Promise<AuditEvent> {
  const [row] = isUuid(input.event_id)
    ? await ctx.db.sql.query<AuditEventRow>(
        `SELECT ${AUDIT_COLUMNS} FROM audit_events e WHERE e.id = $1::uuid AND e.tenant_id = $2::uuid`,
        [input.event_id, ctx.tenantId],
      )
    : [];
  if (!row) throw NotFound("Audit event");
  const [event] = await withActorNames(ctx.db.sql, [row], [presentEvent(row)]);
  return event!;
}

/** The kinds recorded in the tenant's log with their counts, by name (kept by the chain trigger). */
export async function eventTypes(ctx: TenantServiceContext) {
  const { kinds } = await chainHead(ctx.db.sql, ctx.tenantId);
  return {
    results: Object.keys(kinds)
      .sort()
      .map((event_type) => ({ event_type, count: kinds[event_type]! })),
  };
}

/**
 * What the tenant's application sent, as an event to record in its log, with who appended it
 * (the caller's token and user: the event's `api` source, which the body cannot set).
 */
function toEmit(ctx: TenantServiceContext, input: AppendAuditInput): AppendedEventToEmit {
  const { principal } = ctx.actor;
  const tenantId = ctx.tenantId;
  return {
    appendedBy: { tokenId: principal.token?.id ?? null, userId: principal.userId },
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
 * the event's source (`api`, its token and user), hashed with it (see docs/audit-log.md, "Appending events").
 * Concurrent appends to one tenant share a transaction (see appender.ts).
 */
export async function appendEvent(ctx: TenantServiceContext, input: AppendAuditInput): Promise<AuditEvent> {
  const stored = await appendToLog(ctx.db, ctx.tenantId, toEmit(ctx, input)).catch(aheadOfDatabase("timestamp"));
  return presentEvent(stored);
}

/**
 * The database refuses a timestamp more than 5 minutes ahead of its own clock (CHECK
 * audit_events_timestamp_lead, see recorded.ts): with the app's own check (5 s), only an app
 * host whose clock runs ahead of the database's gets here. A 400 naming the field, not a 500.
 */
function aheadOfDatabase(path: string) {
  return (error: unknown): never => {
    const { code, constraint } = error as { code?: string; constraint?: string };
    if (code === "23514" && (constraint === "audit_events_timestamp_lead" || String(error).includes("audit_events_timestamp_lead"))) {
      throw InvalidField(path, "must not be in the future (it is ahead of the database's clock)");
    }
    throw error;
  };
}

/** Records several events of the tenant's application: all or none, contiguous in the chain, in order. */
export async function appendEvents(ctx: TenantServiceContext, input: { events: AppendAuditInput[] }): Promise<{ results: AuditEvent[] }> {
  const at = (event: AppendAuditInput) => (event.timestamp ? parseIsoDate(event.timestamp)!.getTime() : 0);
  const latest = input.events.reduce((newest, event, i) => (at(event) > at(input.events[newest]!) ? i : newest), 0);
  const stored = await appendManyToLog(
    ctx.db,
    ctx.tenantId,
    input.events.map((event) => toEmit(ctx, event)),
  ).catch(aheadOfDatabase(`events.${latest}.timestamp`));
  return { results: stored.map(presentEvent) };
}
