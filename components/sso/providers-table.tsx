"use client";

import type { ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import type { SsoProvider } from "@/server/sso/schemas";
import { useTRPC } from "../trpc";
import { EmptyState } from "../ui/empty-state";
import { actionsColumn, keepPage, ListTable, pageInput, type ListColumn } from "../ui/list-table";
import type { TablePosition } from "../ui/pagination";
import { Skeleton } from "../ui/skeleton";
import { ShieldIcon } from "../icons";
import { ProviderRow } from "./provider-row";

export const PAGE_SIZE = 20;
/** While a metadata check is under way, the list asks again this often. */
const PENDING_POLL_MS = 2_000;

interface ProvidersTableProps {
  tenantId: string;
  position: TablePosition;
  onMove: (position: TablePosition) => void;
  canWrite: boolean;
  ensureSteppedUp: (action: string) => Promise<boolean>;
  onEdit: (provider: SsoProvider) => void;
  onDelete: (provider: SsoProvider) => void;
  /** Shown when the tenant has no providers at all. */
  emptyAction?: ReactNode;
  highlightId?: string | null;
}

function columns(canWrite: boolean): ListColumn[] {
  return [
    {
      header: "Provider",
      skeleton: (
        <div className="flex items-center gap-3">
          <Skeleton className="size-8 rounded-md" />
          <Skeleton className="h-4 w-40" />
        </div>
      ),
    },
    { header: "Domains", className: "hidden xl:table-cell", skeleton: <Skeleton className="h-4 w-24" /> },
    { header: "Metadata", className: "hidden sm:table-cell", skeleton: <Skeleton className="h-5 w-16" /> },
    { header: "Certificate", className: "hidden md:table-cell", skeleton: <Skeleton className="h-4 w-24" /> },
    { header: "Enabled", skeleton: <Skeleton className="h-6 w-11 rounded-full" /> },
    ...(canWrite ? [actionsColumn("hidden sm:table-cell")] : []),
  ];
}

/** The tenant's SSO providers, newest first, a page at a time; polls while a check is pending. */
export function ProvidersTable({ tenantId, position, onMove, emptyAction, highlightId, ...rowProps }: ProvidersTableProps) {
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.tenantSso.list.queryOptions({ tenant_id: tenantId, ...pageInput(position, PAGE_SIZE) }),
    ...keepPage,
    refetchInterval: (q) => (q.state.data?.results.some((p) => p.metadata.status === "pending") ? PENDING_POLL_MS : false),
  });

  return (
    <ListTable
      label="SSO providers"
      columns={columns(rowProps.canWrite)}
      query={query}
      position={position}
      onMove={onMove}
      pageSize={PAGE_SIZE}
      empty={
        <EmptyState
          icon={<ShieldIcon className="size-6" />}
          title="No SSO providers yet"
          description="Connect a SAML 2.0, OpenID Connect, Google Workspace or Microsoft Entra ID identity provider so your people sign in with their company account."
          action={emptyAction}
        />
      }
      pastEnd={{ noun: "providers", reason: "deleted" }}
      renderRow={(provider) => (
        <ProviderRow key={provider.id} tenantId={tenantId} provider={provider} highlight={provider.id === highlightId} {...rowProps} />
      )}
    />
  );
}
