/**
 * The service turning a webhook off on its own (410 Gone, or 5 days of failures; decided by the
 * delivery core, which calls this first in its transaction and then cancels what is still due):
 * the reason is kept in `disabled_reason`, and `webhook.disabled` is recorded once (the first to
 * flip it wins), by the system actor.
 */
import type { SqlRunner } from "../db/sql.ts";
import { emitEvent } from "../events/emit.ts";

const SYSTEM = { id: null, email: null, ip: null, userAgent: null };

/** Whether this call turned it off (false: it already was). */
export async function disableWebhook(tx: SqlRunner, input: { webhookId: string; tenantId: string; reason: string }): Promise<boolean> {
  const flipped = await tx.query<{ url: string }>(
    `UPDATE webhooks SET enabled = false, disabled_reason = $2, updated_at = now() WHERE id = $1::uuid AND enabled RETURNING url`,
    [input.webhookId, input.reason],
  );
  if (!flipped.length) return false;
  await emitEvent(tx, SYSTEM, {
    type: "webhook.disabled",
    tenantId: input.tenantId,
    target: { type: "webhook", id: input.webhookId, name: flipped[0]!.url },
    details: { url: flipped[0]!.url, reason: input.reason, changes: { enabled: { from: true, to: false } } },
  });
  return true;
}
