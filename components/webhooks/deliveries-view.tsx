"use client";

import { useEffect, useId, useRef, useState } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { consoleUrl } from "../console/urls";
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
import type { Waits } from "./status";
import { deliveryStatusLabel, isInFlight, pollInterval } from "./status";
import type { DeliveryStatus } from "./types";
import { useNewArrivals } from "./use-new-arrivals";
import { DELIVERIES_PAGE_SIZE, DELIVERY_STATUSES, deliveriesInput, deliveryStatusParam } from "./queries";

const PAGE_SIZE = DELIVERIES_PAGE_SIZE;
/** With nothing under way, the first page still asks now and then, to show new deliveries. */
const IDLE_POLL_MS = 10_000;

interface DeliveriesViewProps {
  tenantId: string;
  webhookId: string;
  canWrite: boolean;
  webhookEnabled: boolean;
  /** Why its pending deliveries may wait (an ordered or a paced webhook), shown on them. */
  waits?: Waits;
  /** A delivery to open (from a link such as the test event's toast). */
  openDeliveryId?: string;
}

/**
 * A webhook's deliveries, newest first, with their attempts; refreshes while any is under way. The
 * status filter lives in the URL (`?status=failed`). While a delivery is open, new ones wait
 * behind a "N new deliveries" button so that the open one does not move.
 */
export function DeliveriesView({ tenantId, webhookId, canWrite, webhookEnabled, waits = null, openDeliveryId }: DeliveriesViewProps) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const status = deliveryStatusParam(params.get("status"));
  const retryHintId = useId();
  // The page position belongs to one filter: another filter (or back/forward to it) starts at the first page.
  const [at, setAt] = useState<{ status: string; position: TablePosition }>({ status, position: FIRST_PAGE });
  const position = at.status === status ? at.position : FIRST_PAGE;
  const setPosition = (next: TablePosition) => setAt({ status, position: next });
  const [openIds, setOpenIds] = useState<ReadonlySet<string>>(() => new Set(openDeliveryId ? [openDeliveryId] : []));
  const setOpen = (id: string, open: boolean) =>
    setOpenIds((ids) => {
      const next = new Set(ids);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });

  function setStatus(next: DeliveryStatus | "") {
    const search = new URLSearchParams(params);
    search.delete("delivery");
    if (next) search.set("status", next);
    else search.delete("status");
    router.push(consoleUrl.withQuery(pathname, search), { scroll: false });
  }

  const query = useQuery({
    ...trpc.webhooks.deliveries.queryOptions(deliveriesInput(tenantId, webhookId, status, position.cursor)),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data ? pollInterval(q.state.data.results) || (position.cursor ? false : IDLE_POLL_MS) : false),
  });
  const rows = query.data?.results ?? [];
  const anyOpen = rows.some((d) => openIds.has(d.id));
  const arrivals = useNewArrivals(rows, anyOpen, `${status}:${position.cursor ?? ""}`);
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
        {/* A pill over the list's top edge: it takes no room, so nothing below it moves. */}
        <div aria-live="polite" className="relative h-0">
          {arrivals.held ? (
            <button
              type="button"
              onClick={arrivals.reveal}
              data-testid="new-deliveries"
              className="absolute top-0 left-1/2 z-10 -translate-x-1/2 -translate-y-1/2 rounded-full bg-indigo-600 px-3.5 py-1.5 text-xs font-medium whitespace-nowrap text-white shadow-md hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            >
              Show {arrivals.held} new {arrivals.held === 1 ? "delivery" : "deliveries"}
            </button>
          ) : null}
        </div>
        <ul aria-label="Deliveries" aria-busy={changing || undefined} className={cx("divide-y divide-slate-200", changing && "opacity-60")}>
          {arrivals.shown.map((delivery) => (
            <DeliveryItem
              key={delivery.id}
              tenantId={tenantId}
              delivery={delivery}
              canWrite={canWrite}
              webhookEnabled={webhookEnabled}
              waits={waits}
              retryHintId={retryHintId}
              open={openIds.has(delivery.id)}
              onOpenChange={(open) => setOpen(delivery.id, open)}
              highlight={delivery.id === openDeliveryId}
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
            "Each event sent to this endpoint, with every attempt: the request sent and the answer it got."
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
              onChange={(event) => setStatus(deliveryStatusParam(event.target.value))}
            >
              <option value="">All</option>
              {DELIVERY_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {deliveryStatusLabel(s)}
                </option>
              ))}
            </Select>
          </div>
        }
      />
      {canWrite && !webhookEnabled ? (
        <p id={retryHintId} className="border-b border-slate-200 px-4 py-2 text-xs text-slate-600 sm:px-6" data-testid="retry-hint">
          Retry is off while the webhook is disabled: enable it to send deliveries again.
        </p>
      ) : null}
      {body}
    </Card>
  );
}
