/**
 * The platform search's export for the console (session cookie): the same handler as
 * GET /api/v1/audit/export, for a browser download link. Operators and support staff only.
 */
import { exportAuditSearch } from "@/server/http/audit-export";
import { createConsoleContext } from "@/server/trpc/create-context";
import { requestIdOf } from "@/server/contract/request";

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  const requestId = requestIdOf(req);
  return exportAuditSearch(req, () => createConsoleContext(req, requestId), requestId);
}
