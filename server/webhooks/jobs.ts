/**
 * Periodic work of webhooks (server/jobs): deliveries whose retry fell due. First attempts do not
 * wait for it (the dispatcher runs on commit); this is the safety net, and on a host without a
 * long-lived process (INTERNAL_CRON=off, a cron calling /api/cron) the only way retries go out.
 * And recover jobs (recover.ts): queued, and marked done once their deliveries have all ended.
 * And the `webhook.failing` notice of webhooks failing for 24 h (notices.ts).
 */
import { MINUTE, SECOND, type Job } from "../jobs/job.ts";
import { announceFailingWebhooks } from "./notices.ts";
import { runRecoverJobs } from "./recover.ts";
import { deliverDueWebhooks } from "./sink.ts";

export const webhookJobs: Job[] = [
  {
    name: "webhooks.deliveries",
    every: 5 * SECOND,
    run: async (db, { budgetMs, signal }) => ({ ...(await deliverDueWebhooks(db, { budgetMs, signal })) }),
  },
  // Recover jobs no instance has queued yet (the requesting one starts right away; this is the net).
  { name: "webhooks.recover", every: 5 * SECOND, run: (db) => runRecoverJobs(db) },
  // `webhook.failing` for each webhook failing for 24 h, once per streak (notices.ts).
  { name: "webhooks.failing", every: 5 * MINUTE, run: (db) => announceFailingWebhooks(db) },
];
