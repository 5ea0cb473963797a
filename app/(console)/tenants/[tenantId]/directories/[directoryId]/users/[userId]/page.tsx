import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { prefetchForPage } from "@/server/app/pages";
import { DirectoryUserView } from "@/components/directories/directory-user-view";

export const metadata: Metadata = { title: "Directory user" };

export default async function TenantDirectoryUserPage({
  params,
}: {
  params: Promise<{ tenantId: string; directoryId: string; userId: string }>;
}) {
  const { tenantId, directoryId, userId } = await params;
  const state = await prefetchForPage((trpc) => [
    trpc.account.me.queryOptions({}),
    trpc.directories.getUser.queryOptions({ tenant_id: tenantId, directory_id: directoryId, directory_user_id: userId }),
  ]);
  return (
    <HydrationBoundary state={state}>
      <DirectoryUserView tenantId={tenantId} directoryId={directoryId} userId={userId} />
    </HydrationBoundary>
  );
}
