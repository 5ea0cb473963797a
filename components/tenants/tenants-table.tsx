"use client";

import type { ReactNode } from "react";
import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { messageOf, useTRPC } from "../trpc";
import { CopyButton } from "../ui/copy-button";
import { cx } from "../ui/cx";
import { EmptyState } from "../ui/empty-state";
import { LoadError, PagePastEnd } from "../ui/list-states";
import { RelativeTime } from "../ui/relative-time";
import { Skeleton } from "../ui/skeleton";
import { Table, TBody, Td, Th, THead, Tr } from "../ui/table";
import { FIRST_PAGE, Pagination, startOf, type TablePosition } from "../ui/pagination";
import { BuildingIcon } from "../icons";

export const PAGE_SIZE = 20;

interface TenantsTableProps {
  position: TablePosition;
  onMove: (position: TablePosition) => void;
  /** Shown when there are no tenants at all (e.g. a button to create one). */
  emptyAction?: ReactNode;
  /** A row to draw attention to, such as the tenant just created. */
  highlightId?: string | null;
}

function Head() {
  return (
    <THead>
      <Tr>
        <Th>Name</Th>
        <Th className="hidden md:table-cell">ID</Th>
        <Th>Created</Th>
      </Tr>
    </THead>
  );
}

function LoadingRows() {
  return (
    <Table aria-label="Tenants" aria-busy="true">
      <Head />
      <TBody>
        {Array.from({ length: 5 }, (_, i) => (
          <Tr key={i} data-testid="skeleton-row">
            <Td>
              <Skeleton className="h-4 w-40" />
            </Td>
            <Td className="hidden md:table-cell">
              <Skeleton className="h-4 w-72" />
            </Td>
            <Td>
              <Skeleton className="h-4 w-24" />
            </Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

/** The tenants the caller can see, newest first, a page at a time (keyset cursors). */
export function TenantsTable({ position, onMove, emptyAction, highlightId }: TenantsTableProps) {
  const trpc = useTRPC();
  const input = position.cursor ? { page_size: PAGE_SIZE, cursor: position.cursor } : { page_size: PAGE_SIZE };
  const query = useQuery({ ...trpc.tenants.list.queryOptions(input), placeholderData: keepPreviousData });

  if (query.isPending) return <LoadingRows />;

  if (query.isError) {
    return <LoadError title="Tenants could not be loaded" message={messageOf(query.error)} onRetry={() => query.refetch()} retrying={query.isFetching} />;
  }

  const page = query.data;
  const start = startOf(page, position);

  if (page.results.length === 0) {
    return start === 0 && !position.cursor ? (
      <EmptyState
        icon={<BuildingIcon className="size-6" />}
        title="No tenants yet"
        description="Tenants are the organisations you manage: each has its own members, SSO connections, audit log and webhooks."
        action={emptyAction}
      />
    ) : (
      <PagePastEnd noun="tenants" reason="removed" onFirstPage={() => onMove(FIRST_PAGE)} />
    );
  }

  const changing = query.isPlaceholderData;
  return (
    <>
      <Table aria-label="Tenants" aria-busy={changing || undefined} className={cx(changing && "opacity-60")}>
        <Head />
        <TBody>
          {page.results.map((tenant) => (
            <Tr key={tenant.id} className={cx(tenant.id === highlightId && "bg-indigo-50/60")}>
              {/* w-full + max-w-0: the name takes the room left by the other columns and truncates. */}
              <Td className="w-full max-w-0">
                <Link
                  href={`/tenants/${tenant.id}`}
                  title={tenant.name}
                  className="block truncate font-medium text-slate-900 hover:text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
                >
                  {tenant.name}
                </Link>
                <span className="mt-0.5 block font-mono text-xs text-slate-600 md:hidden">{tenant.id.slice(0, 8)}…</span>
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
          ))}
        </TBody>
      </Table>
      <Pagination page={page} position={position} pageSize={PAGE_SIZE} onMove={onMove} busy={changing} />
    </>
  );
}
