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

export function auditExportPath(problems: Json): Json {
  const download = { description: '`attachment; filename="audit-<tenant>-<YYYY-MM-DD>.<format>"`', schema: { type: "string" } };
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
        filter("event_type", "Exact kind (`user.login`), comma list, or prefix (`user.*`)."),
        filter("start_date", "ISO 8601 date or date-time, inclusive (UTC when no offset is given)."),
        filter("end_date", "ISO 8601 date or date-time, exclusive (UTC when no offset is given)."),
        filter("actor_id", "Only events by this actor."),
        filter("actor_email", "Only events whose actor email is this one, in any letter case (exact otherwise)."),
      ],
      responses: {
        "200": {
          description: "The export, as an attachment.",
          headers: {
            "Content-Disposition": download,
            "Cache-Control": { description: "`no-store`", schema: { type: "string" } },
            "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
          },
          content: {
            "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/AuditEvent" } } },
            "text/csv": { schema: { type: "string" } },
          },
        },
        ...problems,
      },
    },
  };
}
