"use client";

import { useId } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { messageOf, useTRPC } from "../trpc";
import { Button } from "../ui/button";
import { cx } from "../ui/cx";
import { RelativeTime } from "../ui/relative-time";
import { useToast } from "../ui/toast";
import { ChevronDownIcon, RefreshIcon } from "../icons";
import { AttemptsTimeline } from "./attempts-timeline";
import { DeliveryStatusBadge, isInFlight, type Waits } from "./status";
import type { Delivery } from "./types";
import { When } from "./when";

/** Deliveries a person may send again now (the server has the last word). */
const RETRYABLE = new Set<Delivery["status"]>(["failed", "exhausted", "cancelled"]);

interface DeliveryItemProps {
  tenantId: string;
  delivery: Delivery;
  canWrite: boolean;
  /** Whether its webhook is enabled: a disabled one's deliveries are not retried (the button says why). */
  webhookEnabled: boolean;
  /** An ordered or paced webhook's: its pending deliveries are said to wait. */
  waits: Waits;
  /** The id of the text saying why Retry is off, when it is. */
  retryHintId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The delivery a link pointed at: marked. */
  highlight?: boolean;
}

/** One delivery: its status and latest answer, its attempts when opened, and a retry button. */
export function DeliveryItem({
  tenantId,
  delivery,
  canWrite,
  webhookEnabled,
  waits,
  retryHintId,
  open,
  onOpenChange,
  highlight,
}: DeliveryItemProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const notify = useToast();
  const attemptsId = useId();
  const retry = useMutation(
    trpc.webhooks.retry.mutationOptions({ onSettled: () => queryClient.invalidateQueries(trpc.webhooks.pathFilter()) }),
  );
  const latest = delivery.attempts[delivery.attempts.length - 1];

  function retryNow() {
    retry.mutate(
      { tenant_id: tenantId, webhook_id: delivery.webhook_id, delivery_id: delivery.id },
      {
        onSuccess: () => {
          onOpenChange(true);
          notify(<>The {delivery.event_type} delivery is queued to be sent again.</>, "info");
        },
        onError: (error) => notify(<>The delivery could not be retried: {messageOf(error)}</>, "danger"),
      },
    );
  }

  return (
    <li data-testid="delivery" data-delivery-id={delivery.id} data-status={delivery.status} className={cx(highlight && "bg-indigo-50/40")}>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 sm:px-6">
        <button
          type="button"
          onClick={() => onOpenChange(!open)}
          aria-expanded={open}
          aria-controls={attemptsId}
          className="flex min-w-0 flex-1 items-center gap-3 rounded text-left focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <ChevronDownIcon className={cx("size-4 shrink-0 text-slate-500 transition-transform", open && "rotate-180")} />
          <span className="min-w-0">
            <span className="block truncate font-mono text-sm font-medium text-slate-900">{delivery.event_type}</span>
            <span className="block text-xs text-slate-600">
              <RelativeTime iso={delivery.created_at} /> · {delivery.attempt_count} {delivery.attempt_count === 1 ? "attempt" : "attempts"}
              {latest ? ` · last ${latest.response_status ? `HTTP ${latest.response_status}` : "no response"}` : ""}
              {latest?.duration_ms != null ? ` in ${latest.duration_ms} ms` : ""}
            </span>
          </span>
        </button>
        <div className="flex items-center gap-3">
          {isInFlight(delivery) && delivery.next_attempt_at && delivery.attempt_count > 0 ? (
            <span className="hidden text-xs text-slate-600 sm:inline">
              next <When iso={delivery.next_attempt_at} />
            </span>
          ) : null}
          <DeliveryStatusBadge status={delivery.status} waits={waits} />
          {canWrite && RETRYABLE.has(delivery.status) ? (
            <Button
              variant="secondary"
              size="sm"
              onClick={retryNow}
              loading={retry.isPending}
              disabled={!webhookEnabled}
              title={webhookEnabled ? undefined : "Enable the webhook to retry its deliveries"}
              aria-describedby={webhookEnabled ? undefined : retryHintId}
              aria-label={`Retry the ${delivery.event_type} delivery`}
            >
              {retry.isPending ? null : <RefreshIcon className="size-4" />}
              Retry
            </Button>
          ) : null}
        </div>
      </div>
      {open ? (
        <div id={attemptsId} className="border-t border-slate-100 bg-slate-50/70 px-4 py-4 sm:px-6 sm:pl-13">
          <p className="mb-3 text-xs text-slate-600">
            Event <code className="font-mono">{delivery.event_id}</code>
          </p>
          <AttemptsTimeline delivery={delivery} />
        </div>
      ) : null}
    </li>
  );
}
