"use client";

import type { ReactNode } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { messageOf, useTRPC } from "../trpc";
import { cx } from "../ui/cx";
import { EmptyState } from "../ui/empty-state";
import { LoadError, PagePastEnd } from "../ui/list-states";
import { FIRST_PAGE, Pagination, startOf, type TablePosition } from "../ui/pagination";
import { Skeleton } from "../ui/skeleton";
import { Table, TBody, Td, Th, THead, Tr } from "../ui/table";
import { WebhookIcon } from "../icons";
import type { WebhookActions } from "./use-webhook-actions";
import { WebhookRow } from "./webhook-row";

export const PAGE_SIZE = 20;
/** While a last delivery (or a test event just sent) is on its way, the list asks again this often. */
const PENDING_POLL_MS = 3_000;

interface WebhooksTableProps {
  tenantId: string;
  position: TablePosition;
  onMove: (position: TablePosition) => void;
  canWrite: boolean;
  actions: WebhookActions;
  emptyAction?: ReactNode;
  highlightId?: string | null;
}

function Head({ canWrite }: { canWrite: boolean }) {
  return (
    <THead>
      <Tr>
        <Th>Endpoint</Th>
        <Th className="hidden sm:table-cell">Status</Th>
        <Th className="hidden md:table-cell">Last delivery</Th>
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
    <Table aria-label="Webhooks" aria-busy="true">
      <Head canWrite={canWrite} />
      <TBody>
        {Array.from({ length: 3 }, (_, i) => (
          <Tr key={i}>
            <Td>
              <Skeleton className="h-4 w-64" />
              <Skeleton className="mt-1.5 h-3 w-32" />
            </Td>
            <Td className="hidden sm:table-cell">
              <Skeleton className="h-5 w-16" />
            </Td>
            <Td className="hidden md:table-cell">
              <Skeleton className="h-5 w-20" />
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

/** The tenant's webhooks, newest first, a page at a time. */
export function WebhooksTable({ tenantId, position, onMove, canWrite, actions, emptyAction, highlightId }: WebhooksTableProps) {
  const trpc = useTRPC();
  const input = { tenant_id: tenantId, page_size: PAGE_SIZE, ...(position.cursor ? { cursor: position.cursor } : {}) };
  const query = useQuery({
    ...trpc.webhooks.list.queryOptions(input),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      actions.awaitingTest || q.state.data?.results.some((w) => w.last_delivery?.status === "pending") ? PENDING_POLL_MS : false,
  });

  if (query.isPending) return <LoadingRows canWrite={canWrite} />;

  if (query.isError) {
    return <LoadError title="Webhooks could not be loaded" message={messageOf(query.error)} onRetry={() => query.refetch()} retrying={query.isFetching} />;
  }

  const page = query.data;
  if (page.results.length === 0) {
    return startOf(page, position) === 0 && !position.cursor ? (
      <EmptyState
        icon={<WebhookIcon className="size-6" />}
        title="No webhooks yet"
        description="Add an endpoint and we will POST a signed message to it whenever something happens in this tenant."
        action={emptyAction}
      />
    ) : (
      <PagePastEnd noun="webhooks" reason="deleted" onFirstPage={() => onMove(FIRST_PAGE)} />
    );
  }

  const changing = query.isPlaceholderData;
  return (
    <>
      <Table aria-label="Webhooks" aria-busy={changing || undefined} className={cx(changing && "opacity-60")}>
        <Head canWrite={canWrite} />
        <TBody>
          {page.results.map((webhook) => (
            <WebhookRow
              key={webhook.id}
              tenantId={tenantId}
              webhook={webhook}
              canWrite={canWrite}
              actions={actions}
              highlight={webhook.id === highlightId}
            />
          ))}
        </TBody>
      </Table>
      <Pagination page={page} position={position} pageSize={PAGE_SIZE} onMove={onMove} busy={changing} />
    </>
  );
}
