/** Periodic work of credentials and limits (server/jobs): drop what no limit reads any more. */
import { HOUR, MINUTE, type Job } from "../jobs/job.ts";
import { purgeOldFailures } from "./limits.ts";
import { purgeEndedWindows } from "./rate-limit.ts";
import { purgeOldSessions } from "./sessions.ts";
import { purgeStalePendingFactors } from "./mfa.ts";

export const authJobs: Job[] = [
  { name: "auth.failures_purge", every: MINUTE, run: async (db) => ({ auth_failures_purged: await purgeOldFailures(db.prisma) }) },
  {
    name: "auth.rate_limit_windows_purge",
    every: MINUTE,
    run: async (db) => ({ rate_limit_windows_purged: await purgeEndedWindows(db.sql) }),
  },
  { name: "auth.sessions_purge", every: HOUR, run: async (db) => ({ sessions_purged: await purgeOldSessions(db.sql) }) },
  {
    name: "auth.mfa_pending_purge",
    every: HOUR,
    run: async (db) => ({ pending_factors_purged: await purgeStalePendingFactors(db.prisma) }),
  },
];
