/**
 * Operational notices about a webhook, each an event in the transaction of the change it reports
 * (so the audit log and the Events API have it), delivered to the tenant's other webhooks that
 * subscribe (never to the one it is about: the outbox skips it), and mailed to the tenant's admins
 * after commit (notice-mail.ts, at most one mail per webhook per 24 h):
 * - `webhook.delivery_exhausted`: a delivery ran out of retries (the delivery core's `exhausted`
 *   hook, in the transaction recording it). Not for deliveries of notices themselves: two failing
 *   webhooks subscribed to each other's notices would otherwise feed each other without end.
 * - `webhook.failing`: failing for 24 h (`failing_since` that old), once per streak (a job).
 * - `webhook.auto_disabled`: turned off by the core (disable.ts, with `webhook.disabled`).
 */
import type { Database } from "../db/client.ts";
import type { SqlStatements } from "../db/sql.ts";
import type { AfterCommit } from "../delivery/kind.ts";
import { NOTICE_KINDS } from "../events/catalog/notices.ts";
import { emitEvents, SYSTEM_ACTOR } from "../events/emit.ts";
import { mailNotices, type Notice } from "./notice-mail.ts";

/** A notice's tenant and target: the webhook it is about, named by its URL. */
const about = (webhookId: string, tenantId: string, url: string) => ({ tenantId, target: { type: "webhook", id: webhookId, name: url } });

/** How long a webhook fails before `webhook.failing`. */
export const FAILING_NOTICE_HOURS = 24;

interface ExhaustedRow {
  id: string;
  tenant_id: string;
  webhook_id: string;
  url: string;
  event_id: string;
  event_type: string;
  attempt_count: number;
  last_response_status: number | null;
  last_error: string | null;
}

/** The core's `exhausted` hook: one `webhook.delivery_exhausted` per delivery (not of a notice); mails after commit. */
export async function noticeExhausted(tx: SqlStatements, deliveryIds: string[]): Promise<AfterCommit | void> {
  const rows = await tx.query<ExhaustedRow>(
    `SELECT d.id, d.tenant_id, d.webhook_id, w.url, d.event_id, d.event_type, d.attempt_count, d.last_response_status, d.last_error
     FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
     WHERE d.id = ANY($1::uuid[]) AND d.status = 'exhausted' AND d.event_type <> ALL($2::text[])
     ORDER BY d.seq`,
    [deliveryIds, NOTICE_KINDS],
  );
  if (!rows.length) return;
  const events = rows.map((d) => ({
    type: "webhook.delivery_exhausted" as const,
    ...about(d.webhook_id, d.tenant_id, d.url),
    details: {
      url: d.url,
      delivery_id: d.id,
      event_id: d.event_id,
      event_type: d.event_type,
      attempts: d.attempt_count,
      last_response_status: d.last_response_status,
      last_error: d.last_error,
    },
  }));
  await emitEvents(tx, SYSTEM_ACTOR, events);
  const notices = new Map<string, Notice>();
  for (const d of rows) {
    notices.set(d.webhook_id, {
      webhookId: d.webhook_id,
      headline: `A delivery of ${d.event_type} to ${d.url} failed its last retry (${d.last_error ?? "no answer"}).`,
    });
  }
  return (db) => mailNotices(db, [...notices.values()]);
}

/** In the core's disable transaction (disable.ts): `webhook.auto_disabled`; mails after commit. */
export async function noticeAutoDisabled(
  tx: SqlStatements,
  webhook: { id: string; tenantId: string; url: string; reason: string; failingSince: Date | null },
): Promise<AfterCommit> {
  await emitEvents(tx, SYSTEM_ACTOR, [
    {
      type: "webhook.auto_disabled",
      ...about(webhook.id, webhook.tenantId, webhook.url),
      details: { url: webhook.url, reason: webhook.reason, failing_since: webhook.failingSince?.toISOString() ?? null },
    },
  ]);
  return (db) => mailNotices(db, [{ webhookId: webhook.id, headline: `The webhook ${webhook.url} was turned off: ${webhook.reason}.` }]);
}

// Enabled webhooks failing for FAILING_NOTICE_HOURS whose streak was not announced yet, claimed
// (SKIP LOCKED: instances running the job at once take different ones) and marked in one statement.
const ANNOUNCE_FAILING = `WITH due AS (
    SELECT id FROM webhooks
    WHERE enabled AND failing_since <= now() - $1 * interval '1 hour' AND failing_notified_since IS DISTINCT FROM failing_since
    ORDER BY failing_since LIMIT $2 FOR UPDATE SKIP LOCKED
  )
  UPDATE webhooks w SET failing_notified_since = w.failing_since FROM due WHERE w.id = due.id
  RETURNING w.id, w.tenant_id, w.url, w.failing_since,
    (SELECT count(*)::int FROM webhook_deliveries d
      WHERE d.webhook_id = w.id AND d.status = 'exhausted' AND d.last_attempt_at >= w.failing_since) AS exhausted`;

/** The job: `webhook.failing` once per streak of each webhook failing for 24 h. */
export async function announceFailingWebhooks(db: Database, limit = 500): Promise<{ announced: number }> {
  const rows = await db.sql.transaction(async (tx) => {
    const due = await tx.query<{ id: string; tenant_id: string; url: string; failing_since: Date; exhausted: number }>(ANNOUNCE_FAILING, [
      FAILING_NOTICE_HOURS,
      limit,
    ]);
    const events = due.map((w) => ({
      type: "webhook.failing" as const,
      ...about(w.id, w.tenant_id, w.url),
      details: { url: w.url, failing_since: w.failing_since.toISOString(), exhausted_deliveries: w.exhausted },
    }));
    if (events.length) await emitEvents(tx, SYSTEM_ACTOR, events);
    return due;
  });
  await mailNotices(
    db,
    rows.map((w) => ({
      webhookId: w.id,
      headline: `Every delivery to ${w.url} has failed since ${w.failing_since.toISOString()}; ${w.exhausted} ran out of retries.`,
    })),
  );
  return { announced: rows.length };
}
