"use client";

import type { ReactNode } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { SsoProvider } from "@/server/sso/schemas";
import { messageOf, useTRPC } from "../trpc";
import { cx } from "../ui/cx";
import { EmptyState } from "../ui/empty-state";
import { LoadError, PagePastEnd } from "../ui/list-states";
import { FIRST_PAGE, Pagination, startOf, type TablePosition } from "../ui/pagination";
import { Skeleton } from "../ui/skeleton";
import { Table, TBody, Td, Th, THead, Tr } from "../ui/table";
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
  ensureSteppedUp: () => Promise<boolean>;
  onEdit: (provider: SsoProvider) => void;
  onDelete: (provider: SsoProvider) => void;
  /** Shown when the tenant has no providers at all. */
  emptyAction?: ReactNode;
  highlightId?: string | null;
}

function Head({ canWrite }: { canWrite: boolean }) {
  return (
    <THead>
      <Tr>
        <Th>Provider</Th>
        <Th className="hidden xl:table-cell">Domains</Th>
        <Th className="hidden sm:table-cell">Metadata</Th>
        <Th className="hidden md:table-cell">Certificate</Th>
        <Th>Enabled</Th>
        {canWrite ? (
          <Th className="hidden sm:table-cell">
            <span className="sr-only">Actions</span>
          </Th>
        ) : null}
      </Tr>
    </THead>
  );
}

function LoadingRows({ canWrite }: { canWrite: boolean }) {
  return (
    <Table aria-label="SSO providers" aria-busy="true">
      <Head canWrite={canWrite} />
      <TBody>
        {Array.from({ length: 3 }, (_, i) => (
          <Tr key={i}>
            <Td>
              <div className="flex items-center gap-3">
                <Skeleton className="size-8 rounded-md" />
                <Skeleton className="h-4 w-40" />
              </div>
            </Td>
            <Td className="hidden xl:table-cell">
              <Skeleton className="h-4 w-24" />
            </Td>
            <Td className="hidden sm:table-cell">
              <Skeleton className="h-5 w-16" />
            </Td>
            <Td className="hidden md:table-cell">
              <Skeleton className="h-4 w-24" />
            </Td>
            <Td>
              <Skeleton className="h-6 w-11 rounded-full" />
            </Td>
            {canWrite ? <Td className="hidden sm:table-cell" /> : null}
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

/** The tenant's SSO providers, newest first, a page at a time; polls while a check is pending. */
export function ProvidersTable({ tenantId, position, onMove, emptyAction, highlightId, ...rowProps }: ProvidersTableProps) {
  const trpc = useTRPC();
  const input = { tenant_id: tenantId, page_size: PAGE_SIZE, ...(position.cursor ? { cursor: position.cursor } : {}) };
  const query = useQuery({
    ...trpc.tenantSso.list.queryOptions(input),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.results.some((p) => p.metadata.status === "pending") ? PENDING_POLL_MS : false),
  });

  if (query.isPending) return <LoadingRows canWrite={rowProps.canWrite} />;

  if (query.isError) {
    return <LoadError title="SSO providers could not be loaded" message={messageOf(query.error)} onRetry={() => query.refetch()} retrying={query.isFetching} />;
  }

  const page = query.data;
  if (page.results.length === 0) {
    return startOf(page, position) === 0 && !position.cursor ? (
      <EmptyState
        icon={<ShieldIcon className="size-6" />}
        title="No SSO providers yet"
        description="Connect a SAML 2.0, OpenID Connect, Google Workspace or Azure AD identity provider so your people sign in with their company account."
        action={emptyAction}
      />
    ) : (
      <PagePastEnd noun="providers" reason="deleted" onFirstPage={() => onMove(FIRST_PAGE)} />
    );
  }

  const changing = query.isPlaceholderData;
  return (
    <>
      <Table aria-label="SSO providers" aria-busy={changing || undefined} className={cx(changing && "opacity-60")}>
        <Head canWrite={rowProps.canWrite} />
        <TBody>
          {page.results.map((provider) => (
            <ProviderRow key={provider.id} tenantId={tenantId} provider={provider} highlight={provider.id === highlightId} {...rowProps} />
          ))}
        </TBody>
      </Table>
      <Pagination page={page} position={position} pageSize={PAGE_SIZE} onMove={onMove} busy={changing} />
    </>
  );
}
