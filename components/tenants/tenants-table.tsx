"use client";

import type { ReactNode } from "react";
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { consoleUrl } from "../console/urls";
import { useTRPC } from "../trpc";
import { CopyButton } from "../ui/copy-button";
import { cx } from "../ui/cx";
import { EmptyState } from "../ui/empty-state";
import { keepPage, ListTable, type ListColumn } from "../ui/list-table";
import { RelativeTime } from "../ui/relative-time";
import { Skeleton } from "../ui/skeleton";
import { Td, Tr } from "../ui/table";
import type { TablePosition } from "../ui/pagination";
import { BuildingIcon, SearchIcon } from "../icons";
import { TENANTS_PAGE_SIZE, tenantsInput } from "./queries";
import { shortTenantId } from "./tenant-label";

interface TenantsTableProps {
  position: TablePosition;
  onMove: (position: TablePosition) => void;
  /** Shown when there are no tenants at all (e.g. a button to create one). */
  emptyAction?: ReactNode;
  /** A row to draw attention to, such as the tenant just created. */
  highlightId?: string | null;
  /** Only tenants whose name contains this (any case), or with exactly this id. */
  search?: string;
}

const COLUMNS: ListColumn[] = [
  { header: "Name", skeleton: <Skeleton className="h-4 w-40" /> },
  {
    header: "ID",
    className: "hidden md:table-cell",
    skeleton: <Skeleton className="h-4 w-72" />,
  },
  { header: "Created", skeleton: <Skeleton className="h-4 w-24" /> },
];

/** The tenants the caller can see, newest first, a page at a time (keyset cursors). */
export function TenantsTable({ position, onMove, emptyAction, highlightId, search }: TenantsTableProps) {
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.tenants.list.queryOptions(tenantsInput(search ?? "", position.cursor)),
    ...keepPage,
  });

  return (
    <ListTable
      label="Tenants"
      columns={COLUMNS}
      query={query}
      position={position}
      onMove={onMove}
      pageSize={TENANTS_PAGE_SIZE}
      loading={{ rows: 5, rowTestId: "skeleton-row" }}
      empty={
        search ? (
          <EmptyState
            icon={<SearchIcon className="size-6" />}
            title={`No tenant matches “${search}”`}
            description="Search looks for part of a name in any case, or an exact tenant ID."
          />
        ) : (
          <EmptyState
            icon={<BuildingIcon className="size-6" />}
            title="No tenants yet"
            description="Tenants are the organisations you manage: each has its own members, SSO connections, audit log and webhooks."
            action={emptyAction}
          />
        )
      }
      pastEnd={{ noun: "tenants", reason: "removed" }}
      renderRow={(tenant) => (
        <Tr key={tenant.id} className={cx(tenant.id === highlightId && "bg-indigo-50/60")}>
          {/* w-full + max-w-0: the name takes the room left by the other columns and truncates. */}
          <Td className="w-full max-w-0">
            <Link
              href={consoleUrl.tenant(tenant.id)}
              title={tenant.name}
              className="block truncate font-medium text-slate-900 hover:text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              {tenant.name}
            </Link>
            <span className="mt-0.5 block font-mono text-xs text-slate-600 md:hidden">{shortTenantId(tenant.id)}…</span>
          </Td>
          <Td className="hidden md:table-cell">
            <span className="inline-flex items-center gap-1">
              <code className="font-mono text-xs text-slate-700">{tenant.id}</code>
              <CopyButton value={tenant.id} label={`Copy ID of ${tenant.name}`} className="-my-1" />
            </span>
          </Td>
          <Td className="text-slate-600">
            <RelativeTime iso={tenant.created_at} />
          </Td>
        </Tr>
      )}
    />
  );
}
