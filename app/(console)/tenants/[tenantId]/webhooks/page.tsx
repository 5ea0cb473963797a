import type { Metadata } from "next";
import { WebhooksView } from "@/components/webhooks/webhooks-view";

export const metadata: Metadata = { title: "Webhooks" };

export default async function TenantWebhooksPage({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  return <WebhooksView tenantId={tenantId} />;
}
