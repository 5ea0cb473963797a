/** A tenant's webhooks and their deliveries. Verifying a delivery you receive: `verifyWebhook` (../webhook-verify.ts). */
import { Resource, unwrap } from "../resource.js";
import type { Body, Query, ReadOptions, Schema, WriteOptions } from "../types.js";

export class Webhooks extends Resource {
  list(tenantId: string, query: Query<"webhooks-list"> = {}) {
    return this.pages<Schema<"Webhook">>(() =>
      this.http.GET("/tenants/{tenant_id}/webhooks", { params: { path: { tenant_id: tenantId }, query } }),
    );
  }
  get(tenantId: string, webhookId: string, options: ReadOptions = {}) {
    return unwrap(
      this.http.GET("/tenants/{tenant_id}/webhooks/{webhook_id}", {
        params: { path: { tenant_id: tenantId, webhook_id: webhookId } },
        ...this.read(options),
      }),
    );
  }
  /** The answer alone carries `secret` (generated when not given). */
  create(tenantId: string, body: Body<"webhooks-create">, options?: WriteOptions) {
    return unwrap(
      this.http.POST("/tenants/{tenant_id}/webhooks", { params: { path: { tenant_id: tenantId } }, body, ...this.write(options) }),
    );
  }
  update(tenantId: string, webhookId: string, body: Body<"webhooks-update">, options?: WriteOptions) {
    return unwrap(
      this.http.PATCH("/tenants/{tenant_id}/webhooks/{webhook_id}", {
        params: { path: { tenant_id: tenantId, webhook_id: webhookId } },
        body,
        ...this.write(options),
      }),
    );
  }
  async delete(tenantId: string, webhookId: string, options: ReadOptions = {}): Promise<void> {
    await unwrap(
      this.http.DELETE("/tenants/{tenant_id}/webhooks/{webhook_id}", {
        params: { path: { tenant_id: tenantId, webhook_id: webhookId } },
        ...this.read(options),
      }),
    );
  }
  /** Needs a fresh step-up. The old secret keeps signing beside the new one for 24 hours. */
  rotateSecret(tenantId: string, webhookId: string, body: Body<"webhooks-rotateSecret"> = {}, options?: WriteOptions) {
    return unwrap(
      this.http.POST("/tenants/{tenant_id}/webhooks/{webhook_id}/rotate-secret", {
        params: { path: { tenant_id: tenantId, webhook_id: webhookId } },
        body,
        ...this.write(options),
      }),
    );
  }
  /** Sends a `webhook.test` event to the webhook now. */
  test(tenantId: string, webhookId: string, options?: WriteOptions) {
    return unwrap(
      this.http.POST("/tenants/{tenant_id}/webhooks/{webhook_id}/test", {
        params: { path: { tenant_id: tenantId, webhook_id: webhookId } },
        ...this.write(options),
      }),
    );
  }
  deliveries(tenantId: string, webhookId: string, query: Query<"webhooks-deliveries"> = {}) {
    return this.pages<Schema<"WebhookDelivery">>(() =>
      this.http.GET("/tenants/{tenant_id}/webhooks/{webhook_id}/deliveries", {
        params: { path: { tenant_id: tenantId, webhook_id: webhookId }, query },
      }),
    );
  }
  retryDelivery(tenantId: string, webhookId: string, deliveryId: string, options?: WriteOptions) {
    return unwrap(
      this.http.POST("/tenants/{tenant_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/retry", {
        params: { path: { tenant_id: tenantId, webhook_id: webhookId, delivery_id: deliveryId } },
        ...this.write(options),
      }),
    );
  }
  /** Re-sends the webhook's deliveries that ended failed, exhausted or cancelled since `since` (202: a job; follow it with `recoverJob`). */
  recover(tenantId: string, webhookId: string, body: Body<"webhooks-recover">, options?: WriteOptions) {
    return unwrap(
      this.http.POST("/tenants/{tenant_id}/webhooks/{webhook_id}/recover", {
        params: { path: { tenant_id: tenantId, webhook_id: webhookId } },
        body,
        ...this.write(options),
      }),
    );
  }
  recoverJob(tenantId: string, webhookId: string, jobId: string, options: ReadOptions = {}) {
    return unwrap(
      this.http.GET("/tenants/{tenant_id}/webhooks/{webhook_id}/recover/{job_id}", {
        params: { path: { tenant_id: tenantId, webhook_id: webhookId, job_id: jobId } },
        ...this.read(options),
      }),
    );
  }
  /** Evaluates a content filter against an example payload of `event_type` (400 naming `filter` if it is not valid). */
  testFilter(tenantId: string, body: Body<"webhooks-filterTest">, options?: WriteOptions) {
    return unwrap(
      this.http.POST("/tenants/{tenant_id}/webhooks/filter-test", {
        params: { path: { tenant_id: tenantId } },
        body,
        ...this.write(options),
      }),
    );
  }
}
