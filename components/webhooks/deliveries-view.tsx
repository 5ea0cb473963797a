"use client";

import { useEffect, useRef, useState } from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { messageOf, useTRPC } from "../trpc";
import { Card, CardHeader } from "../ui/card";
import { cx } from "../ui/cx";
import { EmptyState } from "../ui/empty-state";
import { LoadError, PagePastEnd } from "../ui/list-states";
import { FIRST_PAGE, Pagination, startOf, type TablePosition } from "../ui/pagination";
import { Select } from "../ui/select";
import { Skeleton } from "../ui/skeleton";
import { Spinner } from "../ui/spinner";
import { SendIcon } from "../icons";
import { DeliveryItem } from "./delivery-item";
import { deliveryStatusLabel, isInFlight, pollInterval } from "./status";
import type { DeliveryStatus } from "./types";

const PAGE_SIZE = 20;
const STATUSES: DeliveryStatus[] = ["pending", "succeeded", "failed", "exhausted", "cancelled"];

interface DeliveriesViewProps {
  tenantId: string;
  webhookId: string;
  canWrite: boolean;
  /** A delivery to open (from a link such as the test event's toast). */
  openDeliveryId?: string;
}

/** A webhook's deliveries, newest first, with their attempts; refreshes while any is under way. */
export function DeliveriesView({ tenantId, webhookId, canWrite, openDeliveryId }: DeliveriesViewProps) {
  const trpc = useTRPC();
  const [status, setStatus] = useState<DeliveryStatus | "">("");
  const [position, setPosition] = useState<TablePosition>(FIRST_PAGE);
  const input = {
    tenant_id: tenantId,
    webhook_id: webhookId,
    page_size: PAGE_SIZE,
    ...(status ? { status } : {}),
    ...(position.cursor ? { cursor: position.cursor } : {}),
  };
  const query = useQuery({
    ...trpc.webhooks.deliveries.queryOptions(input),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data ? pollInterval(q.state.data.results) : false),
  });
  const polling = query.data?.results.some(isInFlight) ?? false;

  // When a delivery moves on, the webhook's "last delivery" (here and in the list) has too.
  const queryClient = useQueryClient();
  const progress = query.data?.results.map((d) => `${d.id}:${d.status}:${d.attempt_count}`).join() ?? "";
  const seen = useRef("");
  useEffect(() => {
    if (seen.current === progress) return;
    seen.current = progress;
    void queryClient.invalidateQueries(trpc.webhooks.get.queryFilter({ tenant_id: tenantId, webhook_id: webhookId }));
    void queryClient.invalidateQueries(trpc.webhooks.list.pathFilter());
  }, [progress, queryClient, trpc, tenantId, webhookId]);

  let body;
  if (query.isPending) {
    body = (
      <div className="space-y-3 px-4 py-4 sm:px-6" aria-busy="true">
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} className="h-10 w-full" />
        ))}
      </div>
    );
  } else if (query.isError) {
    body = (
      <LoadError
        title="Deliveries could not be loaded"
        message={messageOf(query.error)}
        onRetry={() => query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else if (query.data.results.length === 0) {
    body =
      startOf(query.data, position) === 0 && !position.cursor ? (
        <EmptyState
          icon={<SendIcon className="size-6" />}
          title={status ? `No ${deliveryStatusLabel(status).toLowerCase()} deliveries` : "No deliveries yet"}
          description={
            status
              ? "Choose another status to see more."
              : "Deliveries show up here as events happen. Send a test event to try the endpoint."
          }
        />
      ) : (
        <PagePastEnd noun="deliveries" reason="cleaned up" onFirstPage={() => setPosition(FIRST_PAGE)} />
      );
  } else {
    const changing = query.isPlaceholderData;
    body = (
      <>
        <ul aria-label="Deliveries" aria-busy={changing || undefined} className={cx("divide-y divide-slate-200", changing && "opacity-60")}>
          {query.data.results.map((delivery) => (
            <DeliveryItem
              key={delivery.id}
              tenantId={tenantId}
              delivery={delivery}
              canWrite={canWrite}
              initiallyOpen={delivery.id === openDeliveryId}
            />
          ))}
        </ul>
        <Pagination page={query.data} position={position} pageSize={PAGE_SIZE} onMove={setPosition} busy={changing} />
      </>
    );
  }

  return (
    <Card id="deliveries" aria-labelledby="deliveries-title" className="scroll-mt-6">
      <CardHeader
        title={<span id="deliveries-title">Deliveries</span>}
        description={
          polling ? (
            <span className="inline-flex items-center gap-1.5" data-testid="deliveries-polling">
              <Spinner className="size-3.5 text-indigo-600" />
              Some deliveries are under way; this list refreshes by itself.
            </span>
          ) : (
            "Each event sent to this endpoint, with every attempt and the answer it got."
          )
        }
        actions={
          <div className="flex items-center gap-2">
            <label htmlFor="deliveries-status" className="text-sm text-slate-600">
              Status
            </label>
            <Select
              id="deliveries-status"
              value={status}
              className="w-36"
              onChange={(event) => {
                setStatus(event.target.value as DeliveryStatus | "");
                setPosition(FIRST_PAGE);
              }}
            >
              <option value="">All</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {deliveryStatusLabel(s)}
                </option>
              ))}
            </Select>
          </div>
        }
      />
      {body}
    </Card>
  );
}
