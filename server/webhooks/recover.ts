/**
 * Recover (Svix's "recover failed messages"): re-send every delivery of a webhook created in a
 * window that ended `failed`, `exhausted` or `cancelled`, oldest first, at most MAX_RECOVER per
 * request. Re-sending makes a new delivery of the same payload (the same bytes, the same event id,
 * so receivers dedupe on it) with a fresh retry schedule; the original keeps its attempts log and
 * names the job in `recovered_by`, so a later recover does not send it again, and one still
 * waiting to retry (`failed`) is cancelled, so it is not sent twice.
 *
 * The request picks the deliveries (exact `queued`); the copies are queued by a background job any
 * instance runs (claimed with FOR UPDATE SKIP LOCKED: this instance right after the request, the
 * `webhooks.recover` job on every tick), due at once and staggered a millisecond apart so the
 * dispatchers claim them in their original order.
 */
import { type Database, type Tx, sqlIn } from "../db/client.ts";
import type { SqlRunner } from "../db/sql.ts";
import { isUuid } from "../db/ids.ts";
import { Conflict, NotFound } from "../errors.ts";
import { log, errorFields } from "../log.ts";
import type { TenantServiceContext } from "../service-context.ts";
import { WAKE_CHANNEL } from "./outbox.ts";
import { findWebhook } from "./service.ts";
import { wakeWebhookDispatcher } from "./sink.ts";
import { MAX_RECOVER, type RecoverInput, type RecoverJob } from "./schemas.ts";

/** Marks what the job re-sends ($1 job, $2 webhook, $3 since, $4 until or null, $5 cap). */
const PICK = `WITH picked AS (
    SELECT id, created_at FROM webhook_deliveries
    WHERE webhook_id = $2::uuid AND created_at >= $3 AND ($4::timestamptz IS NULL OR created_at < $4)
      AND status IN ('failed', 'exhausted', 'cancelled') AND recovered_by IS NULL
      AND (locked_until IS NULL OR locked_until <= now())
    ORDER BY created_at, id
    LIMIT $5 + 1
    FOR UPDATE
  ), chosen AS (
    SELECT id FROM picked ORDER BY created_at, id LIMIT $5
  ), marked AS (
    UPDATE webhook_deliveries d
    SET recovered_by = $1::uuid,
      status = CASE WHEN d.status = 'failed' THEN 'cancelled' ELSE d.status END,
      next_attempt_at = CASE WHEN d.status = 'failed' THEN NULL ELSE d.next_attempt_at END
    FROM chosen WHERE d.id = chosen.id
    RETURNING 1
  )
  UPDATE webhook_recover_jobs SET
    queued = (SELECT count(*) FROM marked),
    truncated = (SELECT count(*) FROM picked) > $5,
    next_since = (SELECT created_at FROM picked ORDER BY created_at, id OFFSET $5 LIMIT 1)
  WHERE id = $1::uuid`;

const CLAIM = `SELECT j.id, j.webhook_id, w.enabled FROM webhook_recover_jobs j JOIN webhooks w ON w.id = j.webhook_id
  WHERE j.status = 'queued' ORDER BY j.created_at LIMIT 1 FOR UPDATE OF j SKIP LOCKED`;

/** The copies, in the originals' order: due now, a millisecond apart (the claim orders by next_attempt_at). */
const QUEUE = `INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_id, event_type, payload, next_attempt_at, recover_job_id)
  SELECT tenant_id, webhook_id, event_id, event_type, payload, now() - (n - rn) * interval '1 millisecond', $1::uuid
  FROM (SELECT *, row_number() OVER (ORDER BY created_at, id) AS rn, count(*) OVER () AS n
        FROM webhook_deliveries WHERE recovered_by = $1::uuid) o
  ORDER BY rn`;

/** Running jobs whose every delivery has ended are done ($1: one job, or null for all). */
const SETTLE = `UPDATE webhook_recover_jobs j SET status = 'done', finished_at = now()
  WHERE j.status = 'running' AND ($1::uuid IS NULL OR j.id = $1::uuid)
    AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.recover_job_id = j.id AND d.status IN ('pending', 'failed'))`;

interface JobRow {
  id: string;
  webhookId: string;
  status: string;
  since: Date;
  until: Date | null;
  queued: number;
  truncated: boolean;
  nextSince: Date | null;
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

export function presentRecoverJob(row: JobRow, sent: number): RecoverJob {
  return {
    id: row.id,
    webhook_id: row.webhookId,
    status: row.status as RecoverJob["status"],
    queued: row.queued,
    sent,
    truncated: row.truncated,
    next_since: row.nextSince?.toISOString() ?? null,
    since: row.since.toISOString(),
    until: row.until?.toISOString() ?? null,
    error: row.error,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

/** Starts a recover of the webhook's ended deliveries in [since, until); 409 when it is disabled. */
export async function startRecover({ db, tenantId }: TenantServiceContext, input: RecoverInput): Promise<RecoverJob> {
  const job = await db.prisma.$transaction(async (tx: Tx) => {
    const webhook = await findWebhook(tx, tenantId, input.webhook_id);
    if (!webhook.enabled) throw Conflict("The webhook is disabled; enable it before recovering deliveries");
    const created = await tx.webhookRecoverJob.create({
      data: { tenantId, webhookId: webhook.id, since: new Date(input.since), until: input.until ? new Date(input.until) : null },
    });
    await sqlIn(tx).query(PICK, [created.id, webhook.id, created.since, created.until, MAX_RECOVER]);
    return tx.webhookRecoverJob.findUniqueOrThrow({ where: { id: created.id } });
  });
  void runRecoverJobs(db).catch((error) => log.error("webhook recover failed", errorFields(error)));
  return presentRecoverJob(job, 0);
}

/** A recover job of the webhook, with its progress (404 outside the tenant or the webhook). */
export async function getRecoverJob(
  { db, tenantId }: TenantServiceContext,
  { webhookId, jobId }: { webhookId: string; jobId: string },
): Promise<RecoverJob> {
  const webhook = await findWebhook(db.prisma, tenantId, webhookId);
  if (!isUuid(jobId)) throw NotFound("Recover job");
  await db.sql.query(SETTLE, [jobId]);
  const job = await db.prisma.webhookRecoverJob.findFirst({ where: { id: jobId, webhookId: webhook.id } });
  if (!job) throw NotFound("Recover job");
  const sent = await db.prisma.webhookDelivery.count({ where: { recoverJobId: job.id, status: "succeeded" } });
  return presentRecoverJob(job, sent);
}

/** Queues one queued job's copies (any instance; SKIP LOCKED); false when none was waiting. */
async function runOne(tx: SqlRunner): Promise<boolean> {
  const [job] = await tx.query<{ id: string; webhook_id: string; enabled: boolean }>(CLAIM);
  if (!job) return false;
  if (!job.enabled) {
    await tx.query(`UPDATE webhook_deliveries SET recovered_by = NULL WHERE recovered_by = $1::uuid`, [job.id]);
    await tx.query(
      `UPDATE webhook_recover_jobs SET status = 'failed', error = 'The webhook was disabled before its deliveries were queued', queued = 0, finished_at = now() WHERE id = $1::uuid`,
      [job.id],
    );
    return true;
  }
  await tx.query(QUEUE, [job.id]);
  await tx.query(`UPDATE webhook_recover_jobs SET status = 'running', started_at = now() WHERE id = $1::uuid`, [job.id]);
  await tx.query(`SELECT pg_notify('${WAKE_CHANNEL}', '')::text AS notified`);
  return true;
}

/** Runs every queued recover job, then marks the finished ones done. Returns the counts. */
export async function runRecoverJobs(db: Database): Promise<{ recover_jobs_started: number; recover_jobs_done: number }> {
  let started = 0;
  while (await db.sql.transaction(runOne)) started += 1;
  if (started) wakeWebhookDispatcher(db);
  const done = await db.sql.query<{ id: string }>(`${SETTLE} RETURNING j.id`, [null]);
  return { recover_jobs_started: started, recover_jobs_done: done.length };
}
