import type { Metadata } from "next";
import { WebhookDetailsView } from "@/components/webhooks/webhook-details-view";

export const metadata: Metadata = { title: "Webhook" };

export default async function TenantWebhookPage({
  params,
  searchParams,
}: {
  params: Promise<{ tenantId: string; webhookId: string }>;
  searchParams: Promise<{ delivery?: string | string[] }>;
}) {
  const [{ tenantId, webhookId }, { delivery }] = await Promise.all([params, searchParams]);
  return (
    <WebhookDetailsView tenantId={tenantId} webhookId={webhookId} openDeliveryId={typeof delivery === "string" ? delivery : undefined} />
  );
}
