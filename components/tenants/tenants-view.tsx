"use client";

import { useState } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useConsoleUser } from "../console/user-context";
import { consoleUrl } from "../console/urls";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { PageHeader } from "../ui/page-header";
import { FIRST_PAGE, type TablePosition } from "../ui/pagination";
import { SearchBox } from "../ui/search-box";
import { PlusIcon } from "../icons";
import { CreateTenantForm, TENANT_NAME_INPUT_ID } from "./create-tenant-form";
import { MyInvitations } from "./my-invitations";
import { TenantsTable } from "./tenants-table";

export function TenantsView() {
  const user = useConsoleUser();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const search = params.get("search") ?? "";
  const canCreate = user.platformRole === "operator";
  const [position, setPosition] = useState<TablePosition>(FIRST_PAGE);
  const [createdId, setCreatedId] = useState<string | null>(null);

  function searchFor(next: string) {
    setPosition(FIRST_PAGE);
    router.replace(next ? consoleUrl.tenants(next) : pathname, { scroll: false });
  }

  return (
    <>
      <PageHeader
        title="Tenants"
        description={
          canCreate
            ? "Every customer organisation on the platform, each with its own members, SSO, audit log and webhooks."
            : "The organisations you have access to."
        }
      />
      <div className="space-y-6">
        <MyInvitations />
        {canCreate ? (
          <CreateTenantForm
            onCreated={(id) => {
              setCreatedId(id);
              setPosition(FIRST_PAGE);
            }}
          />
        ) : null}
        <Card aria-labelledby="tenants-list-title">
          <CardHeader
            as="h2"
            title={<span id="tenants-list-title">{search ? "Matching tenants" : "All tenants"}</span>}
            actions={
              <SearchBox id="tenant-search" label="Search tenants" placeholder="Search by name or ID" value={search} onChange={searchFor} />
            }
          />
          <TenantsTable
            position={position}
            onMove={setPosition}
            highlightId={createdId}
            search={search}
            emptyAction={
              canCreate ? (
                <Button onClick={() => document.getElementById(TENANT_NAME_INPUT_ID)?.focus()}>
                  <PlusIcon className="size-4" />
                  Create your first tenant
                </Button>
              ) : (
                <p className="text-sm text-slate-600">Ask a platform operator to add you to a tenant.</p>
              )
            }
          />
        </Card>
      </div>
    </>
  );
}
