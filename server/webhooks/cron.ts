/**
 * One cron run (`GET|POST /api/cron/webhooks`): deliver what is due within a time budget, then
 * purge expired idempotency keys. Safe on any number of instances at once.
 */
import { timingSafeEqual } from "node:crypto";
import type { Database } from "../db/client.ts";
import { env } from "../env.ts";
import { purgeExpired } from "../http/idempotency.ts";
import { deliverDue, type DeliverOptions, type DeliverySummary } from "./engine.ts";

export interface CronSummary extends DeliverySummary {
  duration_ms: number;
  idempotency_keys_purged: number;
}

/** Budget of one cron request: well inside common serverless limits (Vercel: 60 s). */
export const CRON_BUDGET_MS = 25_000;

export async function runWebhookCron(db: Database, options: DeliverOptions = {}): Promise<CronSummary> {
  const started = Date.now();
  const delivered = await deliverDue(db, { budgetMs: CRON_BUDGET_MS, ...options });
  const purged = await purgeExpired(db.sql);
  return { ...delivered, duration_ms: Date.now() - started, idempotency_keys_purged: purged };
}

/** Whether an Authorization header carries `Bearer $CRON_SECRET` (never, when it is unset). */
export function cronAuthorized(authorization: string | null): boolean {
  const secret = env().CRON_SECRET;
  if (!secret || !authorization) return false;
  const given = Buffer.from(authorization);
  const expected = Buffer.from(`Bearer ${secret}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
