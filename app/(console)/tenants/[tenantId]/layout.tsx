import type { ReactNode } from "react";
import { notFound } from "next/navigation";
import { requireUser } from "@/server/account/session";
import { visibleTenant } from "@/server/tenants/pages";
import { TenantFrame } from "@/components/tenants/tenant-frame";

/**
 * Every page of one tenant; a tenant the user cannot see (or no tenant at all) is a real 404. The
 * tenant read here is the frame's first data, so the frame and the page render on the server.
 */
export default async function TenantLayout({ params, children }: { params: Promise<{ tenantId: string }>; children: ReactNode }) {
  const { tenantId } = await params;
  const tenant = await visibleTenant(await requireUser(), tenantId);
  if (!tenant) notFound();
  return (
    <TenantFrame tenantId={tenantId} initialTenant={tenant}>
      {children}
    </TenantFrame>
  );
}
