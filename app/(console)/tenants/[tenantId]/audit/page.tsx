import { Suspense } from "react";
import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { prefetchForPage } from "@/server/app/pages";
import { AuditView } from "@/components/audit/audit-view";
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

/**
 * The first page of events as the signed-in user sees it, fetched through the console's own
 * audit.list, and the time a preset range ("last 24 hours") ends at, so the view asks the same.
 */
async function firstPage(tenantId: string, search: SearchParams) {
  const anchor = Date.now();
  const input = listInputOf(tenantId, queryOf(search), anchor);
  return { anchor, state: await prefetchForPage((trpc) => [trpc.audit.list.queryOptions(input)]) };
}

/**
 * The first page of events comes with the HTML: rows show before any script runs. The view reads
 * its filters from the URL and takes over from there.
 */
export default async function TenantAuditPage({
  params,
  searchParams,
}: {
  params: Promise<{ tenantId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { tenantId } = await params;
  const { anchor, state } = await firstPage(tenantId, await searchParams);
  return (
    <HydrationBoundary state={state}>
      <Suspense fallback={<LoadingEvents />}>
        <AuditView tenantId={tenantId} initialAnchor={anchor} />
      </Suspense>
    </HydrationBoundary>
  );
}
