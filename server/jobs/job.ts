/**
 * Periodic work: what a feature asks to have run every so often (purge what expired, sign due
 * digests, deliver due retries…). A feature declares its jobs in its own folder; server/app/features.ts
 * lists them, and both the in-process ticker and the cron route run that one list (runner.ts).
 */
import type { Database } from "../db/client.ts";

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;

export interface JobContext {
  /** Aborted when the process stops: finish what is in hand, start nothing more. */
  signal?: AbortSignal;
  /** How long a run may take, for jobs whose work can be cut into pieces (deliveries). */
  budgetMs: number;
}

/** What a run did, as counts (`{ idempotency_keys_purged: 3 }`): logged, and answered by the cron route. */
export type JobSummary = Record<string, number>;

export interface Job {
  /** `<feature>.<what>`, e.g. `audit.digests`: the key in job_runs, logs, metrics and the cron answer. */
  name: string;
  /**
   * The least time between two starts, across every instance and trigger (the ticker, the cron
   * route). Every job must also be safe to run twice at once: a run that outlives `every` may
   * overlap the next one on another instance.
   */
  every: number;
  run(db: Database, context: JobContext): Promise<JobSummary>;
}
