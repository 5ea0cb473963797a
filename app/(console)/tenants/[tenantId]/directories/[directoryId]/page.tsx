import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { prefetchForPage } from "@/server/app/pages";
import { DirectoryDetailsView } from "@/components/directories/directory-details-view";
import {
  directoryGroupsInput,
  directoryTabParam,
  directoryUsersInput,
  scimRequestsInput,
  userFiltersOf,
} from "@/components/directories/queries";

export const metadata: Metadata = { title: "Directory" };

type Query = Record<string, string | string[] | undefined>;

export default async function TenantDirectoryPage({
  params,
  searchParams,
}: {
  params: Promise<{ tenantId: string; directoryId: string }>;
  searchParams: Promise<Query>;
}) {
  const [{ tenantId, directoryId }, query] = await Promise.all([params, searchParams]);
  const tab = directoryTabParam(query.tab);
  const get = (name: string) => (typeof query[name] === "string" ? (query[name] as string) : null);
  // The directory and the open section's first rows come with the page.
  const state = await prefetchForPage((trpc) => [
    trpc.account.me.queryOptions({}),
    trpc.directories.get.queryOptions({ tenant_id: tenantId, directory_id: directoryId }),
    ...(tab === "users"
      ? [trpc.directories.listUsers.queryOptions(directoryUsersInput(tenantId, directoryId, userFiltersOf({ get })))]
      : []),
    ...(tab === "groups" ? [trpc.directories.listGroups.queryOptions(directoryGroupsInput(tenantId, directoryId, ""))] : []),
    // Admins only: a viewer's prefetch fails and is left out, as the client would not ask.
    ...(tab === "activity" ? [trpc.directories.listRequests.queryOptions(scimRequestsInput(tenantId, directoryId, true))] : []),
  ]);
  return (
    <HydrationBoundary state={state}>
      <DirectoryDetailsView tenantId={tenantId} directoryId={directoryId} tab={tab} />
    </HydrationBoundary>
  );
}
