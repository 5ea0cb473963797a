/**
 * The audit export for the console (session cookie): the same handler as
 * GET /api/v1/tenants/{tenant_id}/audit/export, for a browser download link.
 */
import { exportAudit } from "@/server/http/audit-export";
import { createConsoleContext } from "@/server/trpc/create-context";
import { requestIdOf } from "@/server/contract/request";

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: Promise<{ tenantId: string }> }) {
  const requestId = requestIdOf(req);
  const { tenantId } = await params;
  return exportAudit(req, tenantId, () => createConsoleContext(req, requestId), requestId);
}
