import type { Metadata } from "next";
import { TenantOverview } from "@/components/tenants/tenant-overview";

export const metadata: Metadata = { title: "Tenant" };

export default async function TenantPage({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  return <TenantOverview tenantId={tenantId} />;
}
