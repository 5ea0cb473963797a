/** What the console reads of the webhooks API: the server's own response types (server/webhooks/schemas.ts). */
import type { DeliveryStatus, Webhook, WebhookDelivery } from "@/server/webhooks/schemas";

export type { DeliveryStatus, Webhook };
export type Delivery = WebhookDelivery;
export type Attempt = WebhookDelivery["attempts"][number];
