/**
 * The service turning a webhook off on its own (410 Gone, or 5 days of failures; decided by the
 * delivery core, which calls this first in its transaction and then cancels what is still due):
 * the reason is kept in `disabled_reason`, and `webhook.disabled` and `webhook.auto_disabled`
 * (notices.ts) are recorded once (the first to flip it wins), by the system actor.
 */
import type { SqlRunner } from "../db/sql.ts";
import type { AfterCommit } from "../delivery/kind.ts";
import { emitEvent, SYSTEM_ACTOR } from "../events/emit.ts";
import { noticeAutoDisabled } from "./notices.ts";

/**
 * Turns it off if it is on, with `webhook.disabled` and the `webhook.auto_disabled` notice; returns
 * the notice's mail to send once this commits (nothing: it already was off).
 */
export async function disableWebhook(
  tx: SqlRunner,
  input: { webhookId: string; tenantId: string; reason: string },
): Promise<AfterCommit | void> {
  const flipped = await tx.query<{ url: string; failing_since: Date | null }>(
    `UPDATE webhooks SET enabled = false, disabled_reason = $2, updated_at = now() WHERE id = $1::uuid AND enabled RETURNING url, failing_since`,
    [input.webhookId, input.reason],
  );
  if (!flipped.length) return;
  await emitEvent(tx, SYSTEM_ACTOR, {
    type: "webhook.disabled",
    tenantId: input.tenantId,
    target: { type: "webhook", id: input.webhookId, name: flipped[0]!.url },
    details: { url: flipped[0]!.url, reason: input.reason, changes: { enabled: { from: true, to: false } } },
  });
  return noticeAutoDisabled(tx, {
    id: input.webhookId,
    tenantId: input.tenantId,
    url: flipped[0]!.url,
    reason: input.reason,
    failingSince: flipped[0]!.failing_since,
  });
}
