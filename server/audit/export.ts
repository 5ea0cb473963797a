/**
 * The audit export: a tenant's log, filtered, as one JSON array or CSV, streamed in keyset
 * batches pulled as the reader reads (or as one COPY), so memory stays flat. Served over HTTP by
 * server/http/audit-export.ts.
 *
 * The export's own `audit.exported` event is written first, in its own transaction, after the
 * snapshot (the chain head's sequence and the newest matching row) is taken: it is never in it.
 */
import { stringify } from "csv-stringify/sync";
import type { SqlRunner } from "../db/sql.ts";
import { log, errorFields } from "../log.ts";
import type { TenantServiceContext } from "../service-context.ts";
import { actorOf, emitEvent } from "../events/emit.ts";
import type { EXPORT_FORMATS } from "./schemas.ts";
import {
  AUDIT_COLUMNS,
  allEventsQuery,
  chainHead,
  findEvents,
  presentEvent,
  resolveFilter,
  type AuditFilter,
  type AuditFilterParams,
  type Bound,
} from "./query.ts";
import type { AuditEventRow } from "../events/types.ts";
import { copySlotFree, copyStream } from "./export-copy.ts";

/** Rows per keyset query: small batches keep what a scavenge finds alive (and promotes) small. */
export const EXPORT_BATCH = 500;

export const CSV_COLUMNS = [
  "id",
  "event_type",
  "actor_id",
  "actor_email",
  "timestamp",
  "ip_address",
  "user_agent",
  "target_type",
  "target_id",
  "details",
  "sequence",
  "hash",
  "prev_hash",
  "target_name",
  "chain_version",
  "source_type",
  "source_token_id",
  "source_user_id",
] as const;

/**
 * A text cell as the CSV shows it: one a spreadsheet would run as a formula (= + - @, or tab/CR
 * first) gets a leading `'`. Done in SQL, so COPY and the keyset path write the same cells.
 */
const guarded = (column: string, name: string) =>
  `CASE WHEN left(${column}, 1) IN ('=', '+', '-', '@', E'\\t', E'\\r') THEN '''' || ${column} ELSE ${column} END AS ${name}`;

/**
 * CSV_COLUMNS as the CSV shows them, every cell text straight from Postgres (no Date or JSON
 * objects per row on the keyset path; `details` is jsonb's own text form).
 */
const CSV_CELLS = [
  "e.id",
  "e.event_type",
  guarded("e.actor_id", "actor_id"),
  guarded("e.actor_email", "actor_email"),
  `to_char(e."timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "timestamp"`,
  guarded("e.ip_address", "ip_address"),
  guarded("e.user_agent", "user_agent"),
  guarded("e.target_type", "target_type"),
  guarded("e.target_id", "target_id"),
  "e.details::text AS details",
  "e.sequence::text AS sequence",
  "e.hash",
  "e.prev_hash",
  guarded("e.target_name", "target_name"),
  "e.chain_version::text AS chain_version",
  "e.source_type",
  guarded("e.source_token_id", "source_token_id"),
  guarded("e.source_user_id", "source_user_id"),
].join(", ");

/** The platform search's export (search.ts) names each row's tenant: two more columns, first. */
export const TENANT_CSV_COLUMNS = ["tenant_id", "tenant_name"] as const;
const TENANT_NAME = "(SELECT t.name FROM tenants t WHERE t.id = e.tenant_id)";
/** The tenant's name now, as a column of a row (one primary-key lookup per row; null for the platform's events). */
export const TENANT_NAME_COLUMN = `${TENANT_NAME} AS tenant_name`;
const TENANT_CSV_CELLS = `e.tenant_id::text AS tenant_id, ${guarded(TENANT_NAME, "tenant_name")}`;

type Row = AuditEventRow & { tenant_name?: string | null };

/** The CSV's columns, and its cells as selected: with the tenant's two first for the search. */
export function csvCells(withTenant: boolean): { columns: readonly string[]; cells: string } {
  return withTenant
    ? { columns: [...TENANT_CSV_COLUMNS, ...CSV_COLUMNS], cells: `${TENANT_CSV_CELLS}, ${CSV_CELLS}` }
    : { columns: CSV_COLUMNS, cells: CSV_CELLS };
}

/** An empty string is quoted and NULL left empty, as COPY writes them, so the two stay apart (a row's hash tells them apart). */
const csv = (records: unknown[][]) => stringify(records, { record_delimiter: "\n", quoted_match: [/[\r\n]/, /^$/] });

/**
 * One JSON export row: the API's representation, with `details` spliced in as jsonb's own text
 * rather than re-serialized from a parsed object, so numbers keep the digits the row's hash was
 * computed over (`1.50`, integers beyond 2^53). The placeholder cannot occur inside a string
 * value, where quotes are escaped.
 */
function jsonRecord(row: Row & { details_text: string }, withTenant: boolean): string {
  const tenant = withTenant ? { tenant_name: row.tenant_name ?? null } : {};
  return JSON.stringify({ ...presentEvent(row), details: 0, ...tenant }).replace('"details":0,', () => `"details":${row.details_text},`);
}

/** How each format selects, opens, writes and closes; `withTenant` for the search's export (the tenant's columns). */
export function formatsOf(withTenant: boolean) {
  const { columns, cells } = csvCells(withTenant);
  const tenantColumn = withTenant ? `, ${TENANT_NAME_COLUMN}` : "";
  return {
    csv: {
      columns: cells,
      contentType: "text/csv; charset=utf-8",
      open: csv([[...columns]]),
      batch: (rows: AuditEventRow[]) =>
        csv(rows.map((row) => columns.map((column) => (row as unknown as Record<string, unknown>)[column]))),
      close: "",
    },
    json: {
      columns: `${AUDIT_COLUMNS}, e.details::text AS details_text${tenantColumn}`,
      contentType: "application/json",
      open: "[",
      batch: (rows: AuditEventRow[], first: boolean) =>
        (first ? "\n" : ",\n") + (rows as (Row & { details_text: string })[]).map((row) => jsonRecord(row, withTenant)).join(",\n"),
      close: "]\n",
    },
  };
}
type Formats = ReturnType<typeof formatsOf>;
const FORMATS = formatsOf(false);

export function slug(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
}

/** Rows turned into text per chunk: small chunks stay in V8's young generation and die there. */
const CHUNK_ROWS = 100;

/**
 * The rows of `filter` newest first from `start` (inclusive), in batches, as text chunks. The
 * next batch's query is sent as soon as the current batch is in, so the database works while
 * the current batch is formatted and written (at most two batches in memory).
 */
export function rowStream(
  sql: SqlRunner,
  filter: AuditFilter,
  start: Bound | undefined,
  format: Formats["csv" | "json"],
  requestId: string,
) {
  const encoder = new TextEncoder();
  let first = true;
  const fetchAfter = (after: Bound | undefined) => {
    const rows = findEvents(sql, filter, { after, order: "desc", skip: 0, take: EXPORT_BATCH, columns: format.columns });
    rows.catch(() => undefined); // handled when pulled; a prefetch failing first must not crash the process
    return rows;
  };
  let next: Promise<AuditEventRow[]> | null = start ? fetchAfter(start) : null;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(format.open));
      },
      async pull(controller) {
        try {
          const rows = next ? await next : [];
          const last = rows.at(-1);
          next = rows.length === EXPORT_BATCH && last ? fetchAfter({ at: new Date(last.timestamp), id: last.id }) : null;
          for (let at = 0; at < rows.length; at += CHUNK_ROWS) {
            controller.enqueue(encoder.encode(format.batch(rows.slice(at, at + CHUNK_ROWS), first)));
            first = false;
          }
          if (!next) {
            controller.enqueue(encoder.encode(format.close));
            controller.close();
          }
        } catch (error) {
          log.error("audit export failed while streaming", { request_id: requestId, ...errorFields(error) });
          controller.error(error);
        }
      },
      cancel() {
        // A batch already asked for is left to finish; its rows are dropped.
        next = null;
      },
    },
    { highWaterMark: 1 },
  );
}

export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface AuditExport {
  /** A file name for the download: the tenant's name and today's date. */
  filename: string;
  /** The format's media type. */
  contentType: string;
  body: ReadableStream<Uint8Array>;
}

/**
 * The tenant's events matching `filters` as one `format` document, newest first. The snapshot
 * and the `audit.exported` event are taken now; the rows are read as the stream is pulled.
 */
export async function exportEvents(
  ctx: TenantServiceContext,
  input: { format: ExportFormat; filters: AuditFilterParams },
): Promise<AuditExport> {
  const { format, filters } = input;
  const { sql } = ctx.db;
  const tenantId = ctx.tenantId;
  const requestId = ctx.actor.request.requestId;

  const head = await chainHead(sql, tenantId);
  const filter = { ...resolveFilter(tenantId, filters, head), maxSequence: head.sequence };
  const [newest] = await findEvents(sql, filter, { order: "desc", skip: 0, take: 1 });
  const [row] = await sql.query<{ name: string }>(`SELECT name FROM tenants WHERE id = $1::uuid`, [tenantId]);
  await sql.transaction((tx) =>
    emitEvent(tx, actorOf(ctx.actor.principal, ctx.actor.request), {
      type: "audit.exported",
      tenantId,
      target: { type: "tenant", id: tenantId, name: row?.name ?? null },
      details: { format, filters: { ...filters }, exported_through_sequence: head.sequence },
    }),
  );

  const filename = `audit-${slug(row?.name ?? "") || tenantId}-${new Date().toISOString().slice(0, 10)}.${format}`;
  const start = newest ? { at: new Date(newest.timestamp), id: newest.id, inclusive: true } : undefined;
  const copyOut = ctx.db.copyOut;
  const body =
    format === "csv" && copyOut && copySlotFree()
      ? await copyStream(copyOut, allEventsQuery(filter, CSV_CELLS), requestId)
      : rowStream(sql, filter, start, FORMATS[format], requestId);
  return { filename, contentType: FORMATS[format].contentType, body };
}
