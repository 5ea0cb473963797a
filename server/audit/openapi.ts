/** The OpenAPI description of the streamed export, which no procedure describes (see export.ts). */
import { CSV_COLUMNS } from "./export.ts";

type Json = Record<string, unknown>;

const filter = (name: string, description: string, schema: Json = { type: "string" }) => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
});

const FILTERS = [
  filter("event_type", "Exact kind (`user.login`), comma list, or prefix (`user.*`)."),
  filter("start_date", "ISO 8601 date or date-time, inclusive (UTC when no offset is given)."),
  filter("end_date", "ISO 8601 date or date-time, exclusive (UTC when no offset is given)."),
  filter("actor_id", "Only events by this actor."),
  filter("actor_email", "Only events whose actor email is this one, in any letter case (exact otherwise)."),
  filter("target_id", "Only events about this target (`target.id`, exact)."),
  filter("target_type", "Only events about a target of this type (`target.type`, exact)."),
];

/** An export's answer: an attachment named as `filename` says, a JSON array of `row`s or CSV. */
function downloadResponse(filename: string, row: string): Json {
  return {
    description: "The export, as an attachment.",
    headers: {
      "Content-Disposition": { description: filename, schema: { type: "string" } },
      "Cache-Control": { description: "`no-store`", schema: { type: "string" } },
      "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
    },
    content: {
      "application/json": { schema: { type: "array", items: { $ref: `#/components/schemas/${row}` } } },
      "text/csv": { schema: { type: "string" } },
    },
  };
}

/** The platform search's export (GET /audit/export): the tenant export's formats, each row naming its tenant. */
export function auditSearchExportPath(problems: Json): Json {
  return {
    get: {
      operationId: "audit-search-export",
      tags: ["Audit"],
      summary: "Export a search of every tenant's audit events (operators and support)",
      description:
        "The events of `GET /audit` with the same filters (one of actor_email, actor_id, target_id, event_type required), newest first, streamed. " +
        "`json`: one array of AuditSearchResult (each with `tenant_id` and `tenant_name`). " +
        `\`csv\`: as the tenant export with two first columns, tenant_id and tenant_name (${["tenant_id", "tenant_name", ...CSV_COLUMNS].join(", ")}). ` +
        "A snapshot of the events timestamped before it started. Writes an `audit.searched` platform event (the caller, the filters and the format).",
      security: [{ bearerAuth: [] }],
      parameters: [
        filter("format", "`json` (default) or `csv`.", { type: "string", enum: ["json", "csv"] }),
        ...FILTERS,
        filter("from", "ISO 8601 date or date-time, inclusive; `start_date` is the same."),
        filter("to", "ISO 8601 date or date-time, exclusive; `end_date` is the same."),
      ],
      responses: {
        "200": downloadResponse('`attachment; filename="audit-search-<YYYY-MM-DD>.<format>"`', "AuditSearchResult"),
        ...problems,
      },
    },
  };
}

export function auditExportPath(problems: Json): Json {
  return {
    get: {
      operationId: "audit-export",
      tags: ["Audit"],
      summary: "Export audit events",
      description:
        "The events matching the filters (as in the list), newest first, streamed. `json`: one array of AuditEvent. " +
        `\`csv\`: RFC 4180 with a header row (${CSV_COLUMNS.join(", ")}); \`details\` is JSON; cells starting with = + - @ (or tab/CR) ` +
        "are prefixed with `'`. Writes an `audit.exported` event (with the filters and format) that the export itself never contains.",
      security: [{ bearerAuth: [] }],
      parameters: [
        { name: "tenant_id", in: "path", required: true, schema: { type: "string" } },
        filter("format", "`json` (default) or `csv`.", { type: "string", enum: ["json", "csv"] }),
        ...FILTERS,
      ],
      responses: { "200": downloadResponse('`attachment; filename="audit-<tenant>-<YYYY-MM-DD>.<format>"`', "AuditEvent"), ...problems },
    },
  };
}
