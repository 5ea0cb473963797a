import type { ReactNode } from "react";
import { TenantFrame } from "@/components/tenants/tenant-frame";

export default async function TenantLayout({ params, children }: { params: Promise<{ tenantId: string }>; children: ReactNode }) {
  const { tenantId } = await params;
  return <TenantFrame tenantId={tenantId}>{children}</TenantFrame>;
}
