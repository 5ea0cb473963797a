/**
 * The mail to a tenant's admins when one of its log streams has failed for 24 h (once per run of
 * failures: outcome.ts marks it). Without SMTP_URL the mail is written under DATA_DIR/mail/ like
 * every other (server/mail/mailer.ts).
 */
import type { SqlRunner } from "../db/sql.ts";
import { appUrl } from "../env.ts";
import { log } from "../log.ts";
import { sendMail } from "../mail/mailer.ts";

export async function mailFailing(sql: SqlRunner, streamId: string): Promise<void> {
  const [row] = await sql.query<{
    id: string;
    tenant_id: string;
    tenant_name: string;
    name: string;
    type: string;
    last_error: string | null;
    admins: string[];
  }>(
    `SELECT s.id, s.tenant_id, t.name AS tenant_name, s.name, s.type, s.last_error,
       ARRAY(SELECT u.email FROM memberships m JOIN users u ON u.id = m.user_id
             WHERE m.tenant_id = s.tenant_id AND m.role = 'admin' ORDER BY u.email) AS admins
     FROM log_streams s JOIN tenants t ON t.id = s.tenant_id WHERE s.id = $1::uuid`,
    [streamId],
  );
  if (!row) return;
  const page = `${appUrl()}/tenants/${row.tenant_id}/log-streams/${row.id}`;
  for (const to of row.admins) {
    try {
      await sendMail({
        to,
        subject: `Log stream failing: ${row.name} (${row.tenant_name})`,
        text:
          `Every batch to the ${row.type} receiver of the log stream "${row.name}" has failed for 24 hours` +
          `${row.last_error ? ` (last error: ${row.last_error})` : ""}.\n\n` +
          `Nothing is lost: the stream keeps retrying and sends on from where it stopped once the receiver answers again.\n${page}\n`,
      });
    } catch (error) {
      log.error("log stream failing mail not sent", {
        stream_id: row.id,
        to,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
