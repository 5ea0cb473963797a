import { Suspense } from "react";
import type { Metadata } from "next";
import { AuditView } from "@/components/audit/audit-view";
import { LoadingEvents } from "@/components/audit/events-table";

export const metadata: Metadata = { title: "Audit log" };

export default async function TenantAuditPage({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  // The view reads its filters from the URL's search params.
  return (
    <Suspense fallback={<LoadingEvents />}>
      <AuditView tenantId={tenantId} />
    </Suspense>
  );
}
