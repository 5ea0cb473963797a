/** Periodic work of the API contract (server/jobs): stored idempotent responses past their 24 hours. */
import { MINUTE, type Job } from "../jobs/job.ts";
import { purgeExpired } from "./idempotency-keys.ts";

export const idempotencyJobs: Job[] = [
  { name: "rest.idempotency_keys_purge", every: MINUTE, run: async (db) => ({ idempotency_keys_purged: await purgeExpired(db.sql) }) },
];
