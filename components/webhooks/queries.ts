/**
 * The webhooks pages' first queries, shared by the client components and the pages that run them
 * on the server with the page (not a client module, so server components get the values).
 */
import type { DeliveryStatus } from "@/server/webhooks/schemas";

export const WEBHOOKS_PAGE_SIZE = 20;
export const DELIVERIES_PAGE_SIZE = 20;
export const DELIVERY_STATUSES: DeliveryStatus[] = ["pending", "succeeded", "failed", "exhausted", "cancelled"];

/** `?status=` of the page, when it names a status. */
export function deliveryStatusParam(value: string | string[] | null | undefined): DeliveryStatus | "" {
  return typeof value === "string" && (DELIVERY_STATUSES as string[]).includes(value) ? (value as DeliveryStatus) : "";
}

export function webhooksInput(tenantId: string, cursor?: string) {
  return { tenant_id: tenantId, page_size: WEBHOOKS_PAGE_SIZE, ...(cursor ? { cursor } : {}) };
}

export function deliveriesInput(tenantId: string, webhookId: string, status: DeliveryStatus | "", cursor?: string) {
  return {
    tenant_id: tenantId,
    webhook_id: webhookId,
    page_size: DELIVERIES_PAGE_SIZE,
    ...(status ? { status } : {}),
    ...(cursor ? { cursor } : {}),
  };
}
