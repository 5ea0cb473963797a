/**
 * Periodic work of the audit log (server/jobs), in this order: months are created ahead before
 * retention drops old ones, and digests are signed over what is kept.
 */
import { env } from "../env.ts";
import { MINUTE, type Job } from "../jobs/job.ts";
import { signDueDigests } from "./digests.ts";
import { ensureAuditPartitions, purgeExpiredAudit } from "./retention.ts";

export const auditJobs: Job[] = [
  { name: "audit.partitions_ahead", every: MINUTE, run: async (db) => ({ audit_partitions_created: await ensureAuditPartitions(db) }) },
  {
    name: "audit.retention",
    every: MINUTE,
    run: async (db) => ({ audit_events_purged: await purgeExpiredAudit(db, env().AUDIT_RETENTION_DAYS) }),
  },
  /** Tenants with events since a digest at least an hour old get a new one (digests.ts). */
  { name: "audit.digests", every: MINUTE, run: async (db) => ({ audit_digests_signed: await signDueDigests(db) }) },
];
