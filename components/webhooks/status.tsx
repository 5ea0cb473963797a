"use client";

import { Badge } from "../ui/badge";
import { RelativeTime } from "../ui/relative-time";
import type { Delivery, DeliveryStatus, Webhook } from "./types";

const DELIVERY_STATUS: Record<DeliveryStatus, { tone: "neutral" | "accent" | "success" | "warning" | "danger"; label: string }> = {
  pending: { tone: "accent", label: "Pending" },
  succeeded: { tone: "success", label: "Succeeded" },
  failed: { tone: "warning", label: "Failed" },
  exhausted: { tone: "danger", label: "Gave up" },
  cancelled: { tone: "neutral", label: "Cancelled" },
};

export function deliveryStatusLabel(status: DeliveryStatus): string {
  return DELIVERY_STATUS[status].label;
}

/** An ordered webhook's pending deliveries wait behind the ones before it; a paced one's for the rate. */
export type Waits = "ordered" | "paced" | null;

const WAITING: Record<"ordered" | "paced", string> = {
  ordered: "Held in order: sent after the deliveries before it succeed or give up",
  paced: "Waiting for the webhook's rate limit",
};

export function DeliveryStatusBadge({ status, waits = null }: { status: DeliveryStatus; waits?: Waits }) {
  const held = status === "pending" && waits !== null;
  const { tone, label } = held ? { tone: "neutral" as const, label: waits === "ordered" ? "Held" : "Waiting" } : DELIVERY_STATUS[status];
  return (
    <span data-testid="delivery-status" data-status={status} title={held ? WAITING[waits] : undefined}>
      <Badge tone={tone}>{label}</Badge>
    </span>
  );
}

/** Whether the server will try this delivery again by itself (so the view keeps refreshing). */
export function isInFlight(delivery: Pick<Delivery, "status" | "next_attempt_at">): boolean {
  return delivery.status === "pending" || (delivery.status === "failed" && delivery.next_attempt_at !== null);
}

const SOON_MS = 30_000;

/**
 * How often to ask again while deliveries are under way: every 2 s while one is about to be
 * attempted, every 15 s while the next retry is further off, not at all once all are settled.
 */
export function pollInterval(deliveries: Array<Pick<Delivery, "status" | "next_attempt_at">>, now = Date.now()): number | false {
  const inFlight = deliveries.filter(isInFlight);
  if (inFlight.length === 0) return false;
  const soon = inFlight.some((d) => d.status === "pending" || !d.next_attempt_at || Date.parse(d.next_attempt_at) - now < SOON_MS);
  return soon ? 2_000 : 15_000;
}

/** "HTTP 200", or what went wrong before an answer came. */
export function responseLabel(status: number | null | undefined): string {
  return status ? `HTTP ${status}` : "No response";
}

/** Enabled, or disabled with the reason the server gave when it switched the webhook off. */
export function WebhookStatus({ webhook }: { webhook: Pick<Webhook, "enabled" | "disabled_reason"> }) {
  return (
    <div data-testid="webhook-status" data-enabled={webhook.enabled}>
      <Badge tone={webhook.enabled ? "success" : webhook.disabled_reason ? "danger" : "neutral"}>
        {webhook.enabled ? "Enabled" : "Disabled"}
      </Badge>
      {!webhook.enabled && webhook.disabled_reason ? (
        <p className="mt-1 max-w-56 text-xs whitespace-normal text-red-700">{webhook.disabled_reason}</p>
      ) : null}
    </div>
  );
}

/** The result of the webhook's latest delivery: status, response code and when. */
export function LastDelivery({ last }: { last: Webhook["last_delivery"] }) {
  if (!last) return <span className="text-slate-500">None yet</span>;
  return (
    <div data-testid="last-delivery" data-status={last.status}>
      <DeliveryStatusBadge status={last.status} />
      <p className="mt-1 text-xs text-slate-600">
        {last.response_status ? `HTTP ${last.response_status}` : last.status === "pending" ? "Not sent yet" : "No response"}
        {last.attempted_at ? (
          <>
            {" · "}
            <RelativeTime iso={last.attempted_at} />
          </>
        ) : null}
      </p>
    </div>
  );
}
