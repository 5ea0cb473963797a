import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { prefetchForPage } from "@/server/app/pages";
import { TenantsView } from "@/components/tenants/tenants-view";
import { MY_INVITATIONS_INPUT, tenantsInput } from "@/components/tenants/queries";

export const metadata: Metadata = { title: "Tenants" };

export default async function TenantsPage({ searchParams }: { searchParams: Promise<{ search?: string | string[] }> }) {
  const { search } = await searchParams;
  // The first page (as searched by ?search=) comes with the page; the client takes over for paging.
  const state = await prefetchForPage((trpc) => [
    trpc.tenants.list.queryOptions(tenantsInput(typeof search === "string" ? search : "")),
    trpc.myInvitations.list.queryOptions(MY_INVITATIONS_INPUT),
  ]);
  return (
    <HydrationBoundary state={state}>
      <TenantsView />
    </HydrationBoundary>
  );
}
