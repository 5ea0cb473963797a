/**
 * The platform-wide audit search's schemas (GET /api/v1/audit, server/audit/search.ts): the
 * tenant list's filters without the tenant, one of them selective (each has its own index across
 * tenants; the dates and the target's type only narrow), and each result naming its tenant.
 */
import { z } from "zod";
import { pageOf, PageQuery } from "../contract/page-query.ts";
import { AuditEvent, auditFilterFields, EXPORT_FORMATS, IsoDateParam, startNotAfterEnd } from "./schemas.ts";

/** The filters of which the search needs one: each is served by an index of its own across tenants. */
export const SELECTIVE_FILTERS = ["actor_email", "actor_id", "target_id", "event_type"] as const;

function oneSelectiveFilter(value: Partial<Record<(typeof SELECTIVE_FILTERS)[number], string>>, ctx: z.RefinementCtx) {
  if (SELECTIVE_FILTERS.some((name) => value[name])) return;
  ctx.addIssue({
    code: "custom",
    path: ["actor_email"],
    message: "is required unless actor_id, target_id or event_type is given: the search needs one of them",
  });
}

/**
 * `from` and `to`: the search's names for the window (support's words), the same as the tenant
 * list's `start_date` (inclusive) and `end_date` (exclusive), which it takes too; not both forms.
 */
const dateAliases = {
  from: IsoDateParam.meta({
    description: "ISO 8601 date or date-time, inclusive (UTC when no offset is given); `start_date` is the same.",
  }).optional(),
  to: IsoDateParam.meta({
    description: "ISO 8601 date or date-time, exclusive (UTC when no offset is given); `end_date` is the same.",
  }).optional(),
};

type Dated = { from?: string; to?: string; start_date?: string; end_date?: string };

function oneFormOfDates(value: Dated, ctx: z.RefinementCtx) {
  if (value.from && value.start_date) ctx.addIssue({ code: "custom", path: ["from"], message: "give from or start_date, not both" });
  if (value.to && value.end_date) ctx.addIssue({ code: "custom", path: ["to"], message: "give to or end_date, not both" });
}

/** The window with `from`/`to` folded into `start_date`/`end_date`, as the services read it. */
export function withDateAliases<T extends Dated>({ from, to, ...rest }: T): Omit<T, "from" | "to"> {
  return { ...rest, start_date: rest.start_date ?? from, end_date: rest.end_date ?? to };
}

const windowInOrder = (value: Dated, ctx: z.RefinementCtx) => startNotAfterEnd(withDateAliases(value), ctx);

export const SearchAuditInput = PageQuery.extend({ ...auditFilterFields, ...dateAliases })
  .superRefine(oneFormOfDates)
  .superRefine(windowInOrder)
  .superRefine(oneSelectiveFilter);
export type SearchAuditInput = z.infer<typeof SearchAuditInput>;

export const SearchExportQuery = z
  .object({ ...auditFilterFields, ...dateAliases, format: z.enum(EXPORT_FORMATS, { error: "must be json or csv" }).optional() })
  .superRefine(oneFormOfDates)
  .superRefine(windowInOrder)
  .superRefine(oneSelectiveFilter);

export const AuditSearchResult = AuditEvent.extend({
  tenant_name: z.string().nullable().meta({
    description: "The tenant's name now (`tenant_id` names it); null for the platform's own events (no tenant).",
  }),
}).meta({ id: "AuditSearchResult" });
export type AuditSearchResult = z.infer<typeof AuditSearchResult>;

export const AuditSearchPage = pageOf(AuditSearchResult).meta({ id: "AuditSearchPage" });
