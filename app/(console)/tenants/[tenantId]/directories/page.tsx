import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { prefetchForPage } from "@/server/app/pages";
import { DirectoriesView } from "@/components/directories/directories-view";
import { directoriesInput } from "@/components/directories/queries";

export const metadata: Metadata = { title: "Directory Sync" };

export default async function TenantDirectoriesPage({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  // The first page comes with the page; the client takes over for paging and actions.
  const state = await prefetchForPage((trpc) => [
    trpc.account.me.queryOptions({}),
    trpc.directories.list.queryOptions(directoriesInput(tenantId)),
  ]);
  return (
    <HydrationBoundary state={state}>
      <DirectoriesView tenantId={tenantId} />
    </HydrationBoundary>
  );
}
