import { Suspense } from "react";
import type { Metadata } from "next";
import { requireUser } from "@/server/auth/session";
import { firstAuditPage } from "@/server/audit/pages";
import { AuditView, type InitialAuditPage } from "@/components/audit/audit-view";
import { LoadingEvents } from "@/components/audit/events-table";
import { listInputOf } from "@/components/audit/filters";

export const metadata: Metadata = { title: "Audit log" };

type SearchParams = Record<string, string | string[] | undefined>;

/** The URL's query as the client view reads it (useSearchParams: the first value of each name). */
function queryOf(search: SearchParams): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(search)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) query.set(name, first);
  }
  return query;
}

/** The first page of events as the signed-in user sees it, with the input and time it was asked for. */
async function initialPage(tenantId: string, search: SearchParams): Promise<InitialAuditPage | undefined> {
  const anchor = Date.now();
  const input = listInputOf(tenantId, queryOf(search), anchor);
  const page = await firstAuditPage(await requireUser(), input);
  return page ? { anchor, input, page } : undefined;
}

/**
 * The first page of events is fetched here, on the server, and sent with the HTML: rows show
 * before any script runs. The view reads its filters from the URL and takes over from there.
 */
export default async function TenantAuditPage({
  params,
  searchParams,
}: {
  params: Promise<{ tenantId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { tenantId } = await params;
  const initial = await initialPage(tenantId, await searchParams);
  return (
    <Suspense fallback={<LoadingEvents />}>
      <AuditView tenantId={tenantId} initial={initial} />
    </Suspense>
  );
}
