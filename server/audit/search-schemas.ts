/**
 * The platform-wide audit search's schemas (GET /api/v1/audit, server/audit/search.ts): the
 * tenant list's filters without the tenant, one of them selective (each has its own index across
 * tenants; the dates and the target's type only narrow), and each result naming its tenant.
 */
import { z } from "zod";
import { pageOf, PageQuery } from "../contract/page-query.ts";
import { AuditEvent, auditFilterFields, EXPORT_FORMATS, startNotAfterEnd } from "./schemas.ts";

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

export const SearchAuditInput = PageQuery.extend(auditFilterFields).superRefine(startNotAfterEnd).superRefine(oneSelectiveFilter);
export type SearchAuditInput = z.infer<typeof SearchAuditInput>;

export const SearchExportQuery = z
  .object({ ...auditFilterFields, format: z.enum(EXPORT_FORMATS, { error: "must be json or csv" }).optional() })
  .superRefine(startNotAfterEnd)
  .superRefine(oneSelectiveFilter);

export const AuditSearchResult = AuditEvent.extend({
  tenant_name: z.string().nullable().meta({
    description: "The tenant's name now (`tenant_id` names it); null for the platform's own events (no tenant).",
  }),
}).meta({ id: "AuditSearchResult" });
export type AuditSearchResult = z.infer<typeof AuditSearchResult>;

export const AuditSearchPage = pageOf(AuditSearchResult).meta({ id: "AuditSearchPage" });
