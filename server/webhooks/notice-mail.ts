/**
 * The mail of operational notices (notices.ts) to a tenant's admins: at most one per webhook per
 * 24 h, whichever notice comes first (a delivery exhausted, failing for 24 h, turned off: the cap
 * covers them together, so an endpoint that is down mails once a day, not once per delivery).
 * The cap is claimed by one UPDATE of `webhooks.notified_at`, so instances never both send; if no
 * admin could be mailed, the claim is put back and the next notice tries again. Without SMTP_URL
 * the mail is written under DATA_DIR/mail/ like every other (server/mail/mailer.ts).
 */
import type { Database } from "../db/client.ts";
import { appUrl } from "../env.ts";
import { log } from "../log.ts";
import { sendMail } from "../mail/mailer.ts";

export const NOTICE_MAIL_HOURS = 24;

/** One notice about one webhook: what happened, in a sentence. */
export interface Notice {
  webhookId: string;
  headline: string;
}

interface Claimed {
  id: string;
  tenant_id: string;
  tenant_name: string;
  url: string;
  previous: Date | null;
  notified_at: Date;
  admins: string[];
}

// Locked first (FOR UPDATE re-checks the condition after waiting): of two instances, one claims.
const CLAIM = `WITH old AS (
    SELECT id, notified_at FROM webhooks
    WHERE id = $1::uuid AND (notified_at IS NULL OR notified_at <= now() - $2 * interval '1 hour')
    FOR UPDATE
  )
  UPDATE webhooks w SET notified_at = now() FROM old WHERE w.id = old.id
  RETURNING w.id, w.tenant_id, (SELECT t.name FROM tenants t WHERE t.id = w.tenant_id) AS tenant_name, w.url,
    old.notified_at AS previous, w.notified_at,
    ARRAY(SELECT u.email FROM memberships m JOIN users u ON u.id = m.user_id
          WHERE m.tenant_id = w.tenant_id AND m.role = 'admin' ORDER BY u.email) AS admins`;

const RELEASE = `UPDATE webhooks SET notified_at = $2 WHERE id = $1::uuid AND notified_at IS NOT DISTINCT FROM $3`;

/** Mails each notice's webhook's admins, unless that webhook was mailed about in the last 24 h. */
export async function mailNotices(db: Database, notices: Notice[]): Promise<void> {
  for (const notice of notices) await mailNotice(db, notice);
}

async function mailNotice(db: Database, notice: Notice): Promise<boolean> {
  const [claimed] = await db.sql.query<Claimed>(CLAIM, [notice.webhookId, NOTICE_MAIL_HOURS]);
  if (!claimed) return false;
  const page = `${appUrl()}/tenants/${claimed.tenant_id}/webhooks/${claimed.id}`;
  let sent = 0;
  for (const to of claimed.admins) {
    try {
      await sendMail({
        to,
        subject: `Webhook needs attention: ${claimed.url} (${claimed.tenant_name})`,
        text:
          `${notice.headline}\n\n` +
          `What to do: fix the endpoint, then on the webhook's page use "Recover failed deliveries" to send again what failed, ` +
          `and turn the webhook back on if it was turned off.\n${page}\n\n` +
          `You get at most one such mail per webhook per ${NOTICE_MAIL_HOURS} hours; the audit log and the webhook.* notice events have every one.\n`,
      });
      sent += 1;
    } catch (error) {
      log.error("webhook notice mail not sent", {
        webhook_id: claimed.id,
        to,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  if (!sent && claimed.admins.length) await db.sql.query(RELEASE, [claimed.id, claimed.previous, claimed.notified_at]);
  return sent > 0;
}
