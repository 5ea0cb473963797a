import type { ReactNode } from "react";
import { notFound } from "next/navigation";
import { requireUser } from "@/server/auth/session";
import { visibleTenant } from "@/server/tenants/pages";
import { TenantFrame } from "@/components/tenants/tenant-frame";

/** Every page of one tenant; a tenant the user cannot see (or no tenant at all) is a real 404. */
export default async function TenantLayout({ params, children }: { params: Promise<{ tenantId: string }>; children: ReactNode }) {
  const { tenantId } = await params;
  if (!(await visibleTenant(await requireUser(), tenantId))) notFound();
  return <TenantFrame tenantId={tenantId}>{children}</TenantFrame>;
}
