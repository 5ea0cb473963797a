import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { prefetchForPage } from "@/server/app/pages";
import { DomainsView } from "@/components/domains/domains-view";
import { domainsInput } from "@/components/domains/queries";

export const metadata: Metadata = { title: "Domains" };

export default async function TenantDomainsPage({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  // The first page comes with the page; the client takes over for paging and actions.
  const state = await prefetchForPage((trpc) => [trpc.account.me.queryOptions({}), trpc.domains.list.queryOptions(domainsInput(tenantId))]);
  return (
    <HydrationBoundary state={state}>
      <DomainsView tenantId={tenantId} />
    </HydrationBoundary>
  );
}
