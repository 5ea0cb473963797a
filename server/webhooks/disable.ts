/**
 * The service disabling a webhook on its own (410 Gone, or 5 days of failures): the reason is
 * kept in `disabled_reason`, what is still due is cancelled, and `webhook.disabled` is recorded
 * once (the first to flip it wins), by the system actor.
 */
import type { Database } from "../db/client.ts";
import { emitEvent } from "../events/emit.ts";

export interface DisableInput {
  webhookId: string;
  tenantId: string;
  reason: string;
  /** The attempt that caused it, recorded in the same transaction. */
  attempt?: {
    deliveryId: string;
    number: number;
    startedAt: Date;
    durationMs: number;
    status: number | null;
    body: string | null;
    error: string | null;
    /** What was sent, signatures redacted. */
    request: { url: string; headers: Record<string, string> };
    responseHeaders: Record<string, string> | null;
  };
}

const SYSTEM = { id: null, email: null, ip: null, userAgent: null };

export async function disableWebhook(db: Database, input: DisableInput): Promise<boolean> {
  return db.sql.transaction(async (tx) => {
    const flipped = await tx.query<{ url: string }>(
      `UPDATE webhooks SET enabled = false, disabled_reason = $2, updated_at = now() WHERE id = $1::uuid AND enabled RETURNING url`,
      [input.webhookId, input.reason],
    );
    const a = input.attempt;
    if (a) {
      await tx.query(
        `INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, response_status, response_body, error,
           request_url, request_headers, response_headers)
         VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb) ON CONFLICT (delivery_id, attempt) DO NOTHING`,
        [
          a.deliveryId,
          a.number,
          a.startedAt,
          a.durationMs,
          a.status,
          a.body,
          a.error,
          a.request.url,
          JSON.stringify(a.request.headers),
          a.responseHeaders ? JSON.stringify(a.responseHeaders) : null,
        ],
      );
      await tx.query(
        `UPDATE webhook_deliveries SET status = 'cancelled', attempt_count = $2, next_attempt_at = NULL, locked_until = NULL,
           last_attempt_at = $3, last_response_status = $4, last_error = $5, updated_at = now() WHERE id = $1::uuid`,
        [a.deliveryId, a.number, a.startedAt, a.status, `webhook disabled: ${input.reason}`],
      );
    }
    await tx.query(
      `UPDATE webhook_deliveries SET status = 'cancelled', next_attempt_at = NULL, locked_until = NULL, last_error = $2, updated_at = now()
       WHERE webhook_id = $1::uuid AND status IN ('pending', 'failed')`,
      [input.webhookId, `webhook disabled: ${input.reason}`],
    );
    if (!flipped.length) return false;
    await emitEvent(tx, SYSTEM, {
      type: "webhook.disabled",
      tenantId: input.tenantId,
      target: { type: "webhook", id: input.webhookId, name: flipped[0]!.url },
      details: { url: flipped[0]!.url, reason: input.reason, changes: { enabled: { from: true, to: false } } },
    });
    return true;
  });
}
