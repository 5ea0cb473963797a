/** Periodic work of the REST edge (server/jobs): stored idempotent responses past their 24 hours. */
import { MINUTE, type Job } from "../jobs/job.ts";
import { purgeExpired } from "./idempotency.ts";

export const restEdgeJobs: Job[] = [
  { name: "rest.idempotency_keys_purge", every: MINUTE, run: async (db) => ({ idempotency_keys_purged: await purgeExpired(db.sql) }) },
];
