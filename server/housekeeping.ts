/**
 * Periodic clean-up that any instance may run (it only deletes what has expired, and digests of
 * one tenant cannot fork (see audit/digests.ts), so running it on several instances at once is
 * harmless). `npm start` ticks it in-process unless INTERNAL_CRON=off.
 */
import type { Database } from "./db/client.ts";
import { purgeExpired } from "./http/idempotency.ts";
import { purgeOldFailures } from "./auth/limits.ts";
import { purgeEndedWindows } from "./auth/rate-limit.ts";
import { recheckStalePending } from "./sso/checks.ts";
import { purgeExpiredAssertions } from "./sso/saml/replay.ts";
import { purgeExpiredSignIns } from "./sso/signin/pending.ts";
import { purgeExpiredBrokerGrants } from "./sso/broker/grants.ts";
import { log, errorFields } from "./log.ts";
import { wakeDispatcher } from "./webhooks/dispatcher.ts";
import { signDueDigests } from "./audit/digests.ts";
import { ensureAuditPartitions, purgeExpiredAudit } from "./audit/retention.ts";
import { env } from "./env.ts";

export interface HousekeepingSummary {
  idempotency_keys_purged: number;
  auth_failures_purged: number;
  rate_limit_windows_purged: number;
  sso_metadata_rechecked: number;
  /** Tenants with events since a digest at least an hour old got a new one (server/audit/digests.ts). */
  audit_digests_signed: number;
  saml_assertions_purged: number;
  sso_signin_requests_purged: number;
  /** The OAuth broker's expired authorization codes and access tokens. */
  sso_broker_grants_purged: number;
  audit_partitions_created: number;
  audit_events_purged: number;
}

export async function runHousekeeping(db: Database): Promise<HousekeepingSummary> {
  return {
    idempotency_keys_purged: await purgeExpired(db.sql),
    auth_failures_purged: await purgeOldFailures(db.prisma),
    rate_limit_windows_purged: await purgeEndedWindows(db.sql),
    sso_metadata_rechecked: await recheckStalePending(db),
    audit_partitions_created: await ensureAuditPartitions(db),
    audit_events_purged: await purgeExpiredAudit(db, env().AUDIT_RETENTION_DAYS),
    audit_digests_signed: await signDueDigests(db),
    saml_assertions_purged: await purgeExpiredAssertions(db.prisma),
    sso_signin_requests_purged: await purgeExpiredSignIns(db),
    sso_broker_grants_purged: await purgeExpiredBrokerGrants(db),
  };
}

const HOUSEKEEPING_INTERVAL_MS = 60 * 1000;
/** Due webhook retries are also picked up this often (the dispatcher's own timer is the fast path). */
const WEBHOOK_TICK_MS = 5 * 1000;

/** Starts the in-process ticker (housekeeping, and webhook deliveries); returns a function that stops it. */
export function startInternalCron(db: Database): () => void {
  const tick = async () => {
    try {
      const summary = await runHousekeeping(db);
      if (Object.values(summary).some(Boolean)) log.info("housekeeping", { ...summary });
    } catch (error) {
      log.error("housekeeping failed", errorFields(error));
    }
  };
  const timer = setInterval(tick, HOUSEKEEPING_INTERVAL_MS);
  timer.unref();
  const webhooks = setInterval(() => wakeDispatcher(db), WEBHOOK_TICK_MS);
  webhooks.unref();
  void tick();
  return () => {
    clearInterval(timer);
    clearInterval(webhooks);
  };
}
