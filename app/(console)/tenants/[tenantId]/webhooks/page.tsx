import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { prefetchForPage } from "@/server/app/pages";
import { WebhooksView } from "@/components/webhooks/webhooks-view";
import { webhooksInput } from "@/components/webhooks/queries";

export const metadata: Metadata = { title: "Webhooks" };

export default async function TenantWebhooksPage({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  // The first page comes with the page; the client takes over for paging and polling.
  const state = await prefetchForPage((trpc) => [
    trpc.account.me.queryOptions({}),
    trpc.webhooks.list.queryOptions(webhooksInput(tenantId)),
  ]);
  return (
    <HydrationBoundary state={state}>
      <WebhooksView tenantId={tenantId} />
    </HydrationBoundary>
  );
}
