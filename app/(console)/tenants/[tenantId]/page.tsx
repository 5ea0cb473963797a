import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { prefetchForPage } from "@/server/app/pages";
import { TenantOverview } from "@/components/tenants/tenant-overview";
import { directoriesInput } from "@/components/directories/queries";
import { domainsInput } from "@/components/domains/queries";
import { membersInput } from "@/components/members/queries";
import { overviewSsoInput } from "@/components/tenants/queries";
import { webhooksInput } from "@/components/webhooks/queries";

export const metadata: Metadata = { title: "Tenant" };

export default async function TenantPage({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  // The next steps' state comes with the page: each area's first page, through the same
  // procedures (and role checks) as the pages they link to.
  const state = await prefetchForPage((trpc) => [
    trpc.account.me.queryOptions({}),
    trpc.members.list.queryOptions(membersInput(tenantId)),
    trpc.domains.list.queryOptions(domainsInput(tenantId)),
    trpc.tenantSso.list.queryOptions(overviewSsoInput(tenantId)),
    trpc.directories.list.queryOptions(directoriesInput(tenantId)),
    trpc.webhooks.list.queryOptions(webhooksInput(tenantId)),
  ]);
  return (
    <HydrationBoundary state={state}>
      <TenantOverview tenantId={tenantId} />
    </HydrationBoundary>
  );
}
