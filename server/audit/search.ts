/**
 * The platform-wide audit search (GET /api/v1/audit and its export; the console's Audit search
 * page): the tenant list's filters, cursors and export (query.ts, export.ts) without the tenant
 * condition, for operators and support staff only. Each result names its tenant. One filter of
 * SELECTIVE_FILTERS is required: each has an index across tenants in the list's keyset order
 * (migration 20261215000000_audit_search_indexes), so a page is an ordered range read per monthly
 * partition, not a scan (test/integration/audit-search-plans.test.ts at a million events).
 *
 * Support access is itself audited: every search (each page) and every export writes
 * `audit.searched` (who, the filters, and the export's format) into the platform's own chain (the
 * events without a tenant, where operators' other platform actions go), after the rows are read
 * and before they are returned.
 */
import type { ServiceContext } from "../service-context.ts";
import type { SqlRunner } from "../db/sql.ts";
import { keysetPage, type PageRequest } from "../db/keyset.ts";
import { Forbidden } from "../errors.ts";
import { actorOf, emitEvent } from "../events/emit.ts";
import type { AuditEventRow } from "../events/types.ts";
import { scopeTenantOf, seesAllTenants } from "../auth/policy.ts";
import type { Principal } from "../auth/principal.ts";
import { AUDIT_COLUMNS, allEventsQuery, countEvents, findEvents, resolveFilter, type AuditFilterParams } from "./query.ts";
import { presentPage } from "./service.ts";
import { csvCells, formatsOf, rowStream, TENANT_NAME_COLUMN, type AuditExport, type ExportFormat } from "./export.ts";
import { copySlotFree, copyStream } from "./export-copy.ts";
import type { AuditSearchResult } from "./search-schemas.ts";

const SEARCH_COLUMNS = `${AUDIT_COLUMNS}, ${TENANT_NAME_COLUMN}`;

/** Operators and support staff, not confined to one tenant (a tenant-scoped token, an SSO session): else 403. */
function assertMaySearch(principal: Principal) {
  if (!seesAllTenants(principal) || scopeTenantOf(principal)) {
    throw Forbidden("Only platform operators and support staff may search every tenant's audit log");
  }
}

/** Every kind recorded in any chain (to expand `user.*`): one row per chain, kept by the append trigger. */
async function everyKind(sql: SqlRunner) {
  const rows = await sql.query<{ kind: string }>(`SELECT DISTINCT k AS kind FROM audit_chains c, jsonb_object_keys(c.event_types) k`);
  return { sequence: 0, kinds: Object.fromEntries(rows.map((r) => [r.kind, 1])) };
}

/** The filter of a search: the list's, across tenants (newest first, the last months' partitions are read first: query.ts). */
export async function searchFilter(sql: SqlRunner, params: AuditFilterParams) {
  return { ...resolveFilter(null, params, await everyKind(sql)), size: undefined };
}

/** The filters as given, for the `audit.searched` event (only those set). */
function given(params: AuditFilterParams): Record<string, string> {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => typeof v === "string" && v !== "")) as Record<string, string>;
}

async function recordSearch(ctx: ServiceContext, filters: AuditFilterParams, extra: { format?: ExportFormat; results?: number }) {
  await ctx.db.sql.transaction((tx) =>
    emitEvent(tx, actorOf(ctx.actor.principal, ctx.actor.request), {
      type: "audit.searched",
      tenantId: null,
      details: { filters: given(filters), ...extra },
    }),
  );
}

/** A page of every tenant's events matching the filters, newest first, each naming its tenant. Audited. */
export async function searchEvents(ctx: ServiceContext, input: AuditFilterParams & { page: PageRequest }) {
  assertMaySearch(ctx.actor.principal);
  const { page: request, ...filters } = input;
  const { sql } = ctx.db;
  const filter = await searchFilter(sql, filters);
  const page = await keysetPage<AuditEventRow & { tenant_name: string | null }>(request, {
    key: (row) => ({ at: new Date(row.timestamp), id: row.id }),
    count: () => countEvents(sql, filter, { sequence: 0, kinds: {} }),
    find: ({ after, order, skip, take }) =>
      findEvents(sql, filter, { after, order, skip, take, columns: SEARCH_COLUMNS }) as Promise<
        Array<AuditEventRow & { tenant_name: string | null }>
      >,
  });
  const presented = await presentPage(sql, page);
  const items: AuditSearchResult[] = presented.items.map((event, i) => ({ ...event, tenant_name: page.items[i]!.tenant_name ?? null }));
  await recordSearch(ctx, filters, { results: page.count });
  return { ...presented, items };
}

/**
 * Every tenant's events matching the filters as one `format` document, newest first, with the
 * tenant's id and name on each row (CSV: two first columns; JSON: `tenant_id` and `tenant_name`).
 * A snapshot by time: events timestamped from when it started on are left out (its own event too).
 */
export async function exportSearch(ctx: ServiceContext, input: { format: ExportFormat; filters: AuditFilterParams }): Promise<AuditExport> {
  assertMaySearch(ctx.actor.principal);
  const { format, filters } = input;
  const { sql } = ctx.db;
  const startedAt = new Date();
  const filter = await searchFilter(sql, filters);
  if (!filter.end || filter.end > startedAt) filter.end = startedAt;
  await recordSearch(ctx, filters, { format });
  const formats = formatsOf(true);
  const requestId = ctx.actor.request.requestId;
  const copyOut = ctx.db.copyOut;
  const [newest] = await findEvents(sql, filter, { order: "desc", skip: 0, take: 1 });
  const start = newest ? { at: new Date(newest.timestamp), id: newest.id, inclusive: true } : undefined;
  const body =
    format === "csv" && copyOut && copySlotFree()
      ? await copyStream(copyOut, allEventsQuery(filter, csvCells(true).cells), requestId)
      : rowStream(sql, filter, start, formats[format], requestId);
  return {
    filename: `audit-search-${startedAt.toISOString().slice(0, 10)}.${format}`,
    contentType: formats[format].contentType,
    body,
  };
}
