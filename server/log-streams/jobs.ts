/**
 * Periodic work of log streams (server/jobs): every instance runs a dispatcher (dispatcher.ts);
 * this is the net for a host without a long-lived process (INTERNAL_CRON=off, a cron calling
 * /api/cron): each run sends due batches until its budget is spent.
 */
import { SECOND, type Job } from "../jobs/job.ts";
import { deliverDueStreams } from "./engine.ts";

export const logStreamJobs: Job[] = [
  {
    name: "log_streams.batches",
    every: 5 * SECOND,
    run: async (db, { budgetMs, signal }) => {
      const until = Date.now() + budgetMs;
      const total = { batches: 0, events: 0 };
      while (Date.now() < until && !signal?.aborted) {
        const run = await deliverDueStreams(db, { signal });
        total.batches += run.sent;
        total.events += run.events;
        if (!run.sent) break;
      }
      return total;
    },
  },
];
