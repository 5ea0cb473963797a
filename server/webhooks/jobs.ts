/**
 * Periodic work of webhooks (server/jobs): deliveries whose retry fell due. First attempts do not
 * wait for it (the dispatcher runs on commit); this is the safety net, and on a host without a
 * long-lived process (INTERNAL_CRON=off, a cron calling /api/cron) the only way retries go out.
 */
import { SECOND, type Job } from "../jobs/job.ts";
import { deliverDueWebhooks } from "./sink.ts";

export const webhookJobs: Job[] = [
  {
    name: "webhooks.deliveries",
    every: 5 * SECOND,
    run: async (db, { budgetMs, signal }) => ({ ...(await deliverDueWebhooks(db, { budgetMs, signal })) }),
  },
];
