import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { prefetchForPage } from "@/server/app/pages";
import { WebhookDetailsView } from "@/components/webhooks/webhook-details-view";
import { deliveriesInput, deliveryStatusParam } from "@/components/webhooks/queries";

export const metadata: Metadata = { title: "Webhook" };

export default async function TenantWebhookPage({
  params,
  searchParams,
}: {
  params: Promise<{ tenantId: string; webhookId: string }>;
  searchParams: Promise<{ delivery?: string | string[]; status?: string | string[] }>;
}) {
  const [{ tenantId, webhookId }, { delivery, status }] = await Promise.all([params, searchParams]);
  // The webhook and its first deliveries (as filtered by ?status=) come with the page; an unknown
  // webhook is a 404.
  const state = await prefetchForPage(
    (trpc) => [
      trpc.account.me.queryOptions({}),
      trpc.webhooks.deliveries.queryOptions(deliveriesInput(tenantId, webhookId, deliveryStatusParam(status))),
    ],
    { subject: (trpc) => trpc.webhooks.get.queryOptions({ tenant_id: tenantId, webhook_id: webhookId }) },
  );
  return (
    <HydrationBoundary state={state}>
      <WebhookDetailsView tenantId={tenantId} webhookId={webhookId} openDeliveryId={typeof delivery === "string" ? delivery : undefined} />
    </HydrationBoundary>
  );
}
