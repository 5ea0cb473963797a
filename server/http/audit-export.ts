/**
 * GET /api/v1/tenants/{tenant_id}/audit/export (bearer token, via the REST edge) and
 * /api/console/tenants/{tenantId}/audit/export (console session): the HTTP side of the audit
 * export (server/audit/export.ts); GET /api/v1/audit/export and /api/console/audit/export, the
 * platform search's (server/audit/search.ts). Streamed, so served here rather than by a procedure: the
 * caller, the tenant, the query, the download's headers, and problem+json for anything that
 * fails before the first byte.
 */
import { InvalidRequest, fieldErrorsOf } from "../errors.ts";
import { resolveTenantAccess } from "../auth/access.ts";
import { exportEvents } from "../audit/export.ts";
import { ExportAuditQuery } from "../audit/schemas.ts";
import { SearchExportQuery, withDateAliases } from "../audit/search-schemas.ts";
import { exportSearch } from "../audit/search.ts";
import type { AuditExport } from "../audit/export.ts";
import { serviceContext, type Context } from "../trpc/context.ts";
import { requirePrincipal } from "../auth/credentials.ts";
import { assertMfaEnrolled } from "../auth/mfa.ts";
import { errorResponse } from "../contract/problem.ts";
import { publicUrl } from "../contract/request.ts";

/** The query, parsed by `schema`; a 400 naming each bad field. */
function queryOf<T>(
  req: Request,
  schema: { safeParse: (v: unknown) => { success: true; data: T } | { success: false; error: unknown } },
): T {
  const parsed = schema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error as Parameters<typeof fieldErrorsOf>[0]);
    throw InvalidRequest(errors.map((e) => `${e.path}: ${e.message}`).join("; "), errors);
  }
  return parsed.data;
}

async function startExport(req: Request, tenantId: string, ctx: Context): Promise<Response> {
  const principal = requirePrincipal(ctx);
  assertMfaEnrolled(principal);
  const tenant = await resolveTenantAccess(ctx.db.sql, principal, tenantId);
  const { format = "json", ...filters } = queryOf(req, ExportAuditQuery);
  return download(await exportEvents(serviceContext({ ...ctx, principal, tenant }), { format, filters }), ctx);
}

async function startSearchExport(req: Request, ctx: Context): Promise<Response> {
  const principal = requirePrincipal(ctx);
  assertMfaEnrolled(principal);
  const { format = "json", ...filters } = queryOf(req, SearchExportQuery);
  return download(await exportSearch(serviceContext({ ...ctx, principal }), { format, filters: withDateAliases(filters) }), ctx);
}

function download(exported: AuditExport, ctx: Context): Response {
  return new Response(exported.body, {
    status: 200,
    headers: {
      "Content-Type": exported.contentType,
      "Content-Disposition": `attachment; filename="${exported.filename}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      "X-Request-Id": ctx.request.requestId,
    },
  });
}

/** Serves an export for `tenantId`; errors before the first byte are problem+json. */
export async function exportAudit(req: Request, tenantId: string, context: () => Promise<Context>, requestId: string): Promise<Response> {
  const origin = publicUrl(req).origin;
  try {
    return await startExport(req, tenantId, await context());
  } catch (error) {
    return errorResponse(error, { requestId, origin, log: "audit export failed" });
  }
}

/** Serves an export of the platform search (operators and support); errors before the first byte are problem+json. */
export async function exportAuditSearch(req: Request, context: () => Promise<Context>, requestId: string): Promise<Response> {
  const origin = publicUrl(req).origin;
  try {
    return await startSearchExport(req, await context());
  } catch (error) {
    return errorResponse(error, { requestId, origin, log: "audit search export failed" });
  }
}
