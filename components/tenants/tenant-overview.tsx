"use client";

import type { ReactNode } from "react";
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { messageOf, statusOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { buttonClasses, Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { CopyButton } from "../ui/copy-button";
import { EmptyState } from "../ui/empty-state";
import { PageHeader } from "../ui/page-header";
import { formatExact, RelativeTime } from "../ui/relative-time";
import { Skeleton } from "../ui/skeleton";
import { AlertIcon, ChevronLeftIcon } from "../icons";

function BackToTenants() {
  return (
    <Link
      href="/tenants"
      className="inline-flex items-center gap-1 rounded hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <ChevronLeftIcon className="size-4" />
      Tenants
    </Link>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 px-4 py-3.5 sm:grid-cols-4 sm:gap-4 sm:px-6">
      <dt className="text-sm font-medium text-slate-600">{term}</dt>
      <dd className="min-w-0 text-sm text-slate-900 sm:col-span-3">{children}</dd>
    </div>
  );
}

export function TenantDetail({ tenantId }: { tenantId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.tenants.get.queryOptions({ tenant_id: tenantId }));

  if (query.isPending) {
    return (
      <div aria-busy="true">
        <PageHeader eyebrow={<BackToTenants />} title={<Skeleton className="h-8 w-64" />} />
        <Card>
          <div className="space-y-4 p-6">
            <Skeleton className="h-4 w-1/2" />
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-4 w-1/3" />
          </div>
        </Card>
      </div>
    );
  }

  if (query.isError) {
    if (statusOf(query.error) === 404) {
      return (
        <>
          <title>Tenant not found · Control Plane</title>
          <PageHeader eyebrow={<BackToTenants />} title="Tenant not found" />
          <Card>
            <EmptyState
              icon={<AlertIcon className="size-6" />}
              title="This tenant does not exist or you do not have access to it"
              description="Check the link, or pick a tenant from the list."
              action={
                <Link href="/tenants" className={buttonClasses("secondary")}>
                  Back to tenants
                </Link>
              }
            />
          </Card>
        </>
      );
    }
    return (
      <>
        <PageHeader eyebrow={<BackToTenants />} title="Tenant" />
        <Alert
          tone="danger"
          title="The tenant could not be loaded"
          action={
            <Button variant="secondary" size="sm" onClick={() => query.refetch()} loading={query.isFetching}>
              Try again
            </Button>
          }
        >
          {messageOf(query.error)}
        </Alert>
      </>
    );
  }

  const tenant = query.data;
  return (
    <>
      <title>{`${tenant.name} · Control Plane`}</title>
      <PageHeader eyebrow={<BackToTenants />} title={tenant.name} />
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
        </dl>
      </Card>
    </>
  );
}
