"use client";

import type { ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import type { Tenant } from "@/server/tenants/schemas";
import { useTenantRole, type TenantRole } from "../console/use-tenant-role";
import { useTRPC } from "../trpc";
import { Badge } from "../ui/badge";
import { Card, CardHeader } from "../ui/card";
import { CopyButton } from "../ui/copy-button";
import { formatExact, RelativeTime } from "../ui/relative-time";
import { TenantNextSteps } from "./tenant-next-steps";

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 px-4 py-3.5 sm:grid-cols-4 sm:gap-4 sm:px-6">
      <dt className="text-sm font-medium text-slate-600">{term}</dt>
      <dd className="min-w-0 text-sm text-slate-900 sm:col-span-3">{children}</dd>
    </div>
  );
}

/** The Overview tab: the next steps of setting the tenant up, and its details (the frame around it has loaded the tenant already). */
export function TenantOverview({ tenantId }: { tenantId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.tenants.get.queryOptions({ tenant_id: tenantId }));
  const { role, label, canWrite } = useTenantRole(tenantId);
  const tenant = query.data;
  if (!tenant) return null;

  return (
    <div className="space-y-6">
      <TenantNextSteps tenantId={tenantId} canWrite={canWrite} />
      <TenantDetails tenant={tenant} role={role} label={label} />
    </div>
  );
}

function TenantDetails({ tenant, role, label }: { tenant: Tenant; role: TenantRole | null; label: string | null }) {
  return (
    <Card aria-labelledby="tenant-details-title">
      <CardHeader title={<span id="tenant-details-title">Details</span>} />
      <dl className="divide-y divide-slate-200">
        <Row term="Name">{tenant.name}</Row>
        <Row term="ID">
          <span className="inline-flex max-w-full items-center gap-1">
            <code className="font-mono text-xs break-all text-slate-800" data-testid="tenant-id">
              {tenant.id}
            </code>
            <CopyButton value={tenant.id} label="Copy tenant ID" className="-my-1.5" />
          </span>
        </Row>
        <Row term="Created">
          <RelativeTime iso={tenant.created_at} />
          <span className="text-slate-600"> · {formatExact(tenant.created_at)}</span>
        </Row>
        {role ? (
          <Row term="Your access">
            <Badge tone={role === "admin" ? "accent" : "neutral"}>{label}</Badge>
            <span className="ml-2 text-slate-600">{role === "admin" ? "You can change this tenant." : "You can look, not change."}</span>
          </Row>
        ) : null}
      </dl>
    </Card>
  );
}
