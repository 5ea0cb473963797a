"use client";

import type { ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { EmptyState } from "../ui/empty-state";
import { enabledColumn, rowActionsColumn } from "../resource/resource-row";
import { keepPage, ListTable, type ListColumn } from "../ui/list-table";
import type { TablePosition } from "../ui/pagination";
import { Skeleton } from "../ui/skeleton";
import { WebhookIcon } from "../icons";
import type { WebhookActions } from "./use-webhook-actions";
import { WebhookRow } from "./webhook-row";
import { WEBHOOKS_PAGE_SIZE, webhooksInput } from "./queries";

const PAGE_SIZE = WEBHOOKS_PAGE_SIZE;
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

function columns(canWrite: boolean): ListColumn[] {
  return [
    {
      header: "Endpoint",
      skeleton: (
        <>
          <Skeleton className="h-4 w-64" />
          <Skeleton className="mt-1.5 h-3 w-32" />
        </>
      ),
    },
    { header: "Last delivery", className: "hidden md:table-cell", skeleton: <Skeleton className="h-5 w-20" /> },
    enabledColumn,
    ...rowActionsColumn(canWrite),
  ];
}

/** The tenant's webhooks, newest first, a page at a time. */
export function WebhooksTable({ tenantId, position, onMove, canWrite, actions, emptyAction, highlightId }: WebhooksTableProps) {
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.webhooks.list.queryOptions(webhooksInput(tenantId, position.cursor)),
    ...keepPage,
    refetchInterval: (q) =>
      actions.awaitingTest || q.state.data?.results.some((w) => w.last_delivery?.status === "pending") ? PENDING_POLL_MS : false,
  });

  return (
    <ListTable
      label="Webhooks"
      columns={columns(canWrite)}
      query={query}
      position={position}
      onMove={onMove}
      pageSize={PAGE_SIZE}
      empty={
        <EmptyState
          icon={<WebhookIcon className="size-6" />}
          title="No webhooks yet"
          description="Add an endpoint and we will POST a signed message to it whenever something happens in this tenant."
          action={emptyAction}
        />
      }
      pastEnd={{ noun: "webhooks", reason: "deleted" }}
      renderRow={(webhook) => (
        <WebhookRow
          key={webhook.id}
          tenantId={tenantId}
          webhook={webhook}
          canWrite={canWrite}
          actions={actions}
          highlight={webhook.id === highlightId}
        />
      )}
    />
  );
}
