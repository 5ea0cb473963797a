"use client";

import type { ReactNode } from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { consoleUrl } from "../console/urls";
import { messageOf, statusOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { buttonClasses, Button } from "../ui/button";
import { Card } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import { PageHeader } from "../ui/page-header";
import { Skeleton } from "../ui/skeleton";
import { AlertIcon, ChevronLeftIcon } from "../icons";
import type { Tenant } from "@/server/tenants/schemas";
import { activeTenantTab, TenantTabs } from "./tenant-tabs";

function BackToTenants() {
  return (
    <Link
      href={consoleUrl.tenants()}
      className="inline-flex items-center gap-1 rounded hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <ChevronLeftIcon className="size-4" />
      Tenants
    </Link>
  );
}

/**
 * Every page of one tenant: its name as the page heading, the tabs, then the page. A tenant that
 * does not exist (or is out of reach) shows "not found" instead of the page. `initialTenant`: the
 * tenant as the server read it for this request, so the frame and its page render with the HTML.
 */
export function TenantFrame({ tenantId, initialTenant, children }: { tenantId: string; initialTenant?: Tenant; children: ReactNode }) {
  const trpc = useTRPC();
  const pathname = usePathname();
  const query = useQuery({
    ...trpc.tenants.get.queryOptions({ tenant_id: tenantId }),
    initialData: initialTenant?.id === tenantId ? initialTenant : undefined,
  });

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
                <Link href={consoleUrl.tenants()} className={buttonClasses("secondary")}>
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

  // The page itself does not wait for the tenant's name (its first rows may have come with it),
  // and it stays mounted when the name arrives: the same tree in both cases, children in one place.
  const tenant = query.data;
  const tab = activeTenantTab(tenantId, pathname);
  const title = tenant ? (tab && tab.segment ? `${tab.label} · ${tenant.name}` : tenant.name) : null;
  return (
    <>
      {title ? <title>{`${title} · Control Plane`}</title> : null}
      <div aria-busy={tenant ? undefined : true}>
        <PageHeader eyebrow={<BackToTenants />} title={tenant ? tenant.name : <Skeleton className="h-8 w-64" />} />
      </div>
      <TenantTabs tenantId={tenantId} />
      {children}
    </>
  );
}
