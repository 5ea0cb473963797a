/**
 * Runs periodic jobs (job.ts), from either trigger: the in-process ticker (`npm start` unless
 * INTERNAL_CRON=off) or the cron route (`/api/cron`, for serverless hosts and single-scheduler
 * setups). Both claim a job in job_runs first, so the fleet starts each job once per `every`
 * whichever instance or trigger gets there first; a job that throws is logged and recorded, and the
 * others still run.
 */
import type { Database } from "../db/client.ts";
import { log, errorFields } from "../log.ts";
import { observeJobRun } from "../metrics.ts";
import type { Job, JobContext, JobSummary } from "./job.ts";

export type JobOutcome =
  | { name: string; outcome: "ran"; duration_ms: number; summary: JobSummary }
  | { name: string; outcome: "failed"; duration_ms: number; error: string }
  /** Started less than `every` ago (here or on another instance), or still running in this process. */
  | { name: string; outcome: "not_due" };

export interface JobsRun {
  duration_ms: number;
  jobs: JobOutcome[];
}

const CLAIM = `INSERT INTO job_runs (name, started_at) VALUES ($1, now())
  ON CONFLICT (name) DO UPDATE SET started_at = now()
  WHERE job_runs.started_at <= now() - $2 * interval '1 millisecond'
  RETURNING name`;
const FINISH = `UPDATE job_runs SET finished_at = now(), summary = $2, error = $3 WHERE name = $1`;

/** This process's jobs in flight and last starts, per database: a tick asks it only for what may be due. */
const local = new WeakMap<Database, { running: Set<string>; startedHere: Map<string, number> }>();

function localOf(db: Database) {
  let state = local.get(db);
  if (!state) local.set(db, (state = { running: new Set(), startedHere: new Map() }));
  return state;
}

async function runOne(db: Database, job: Job, context: JobContext): Promise<JobOutcome> {
  const started = Date.now();
  try {
    return { name: job.name, outcome: "ran", duration_ms: Date.now() - started, summary: await job.run(db, context) };
  } catch (error) {
    log.error("job failed", { job: job.name, ...errorFields(error) });
    return {
      name: job.name,
      outcome: "failed",
      duration_ms: Date.now() - started,
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

async function record(db: Database, result: JobOutcome): Promise<void> {
  if (result.outcome === "not_due") return;
  observeJobRun(result.name, result.outcome, result.duration_ms / 1000);
  const summary = result.outcome === "ran" ? JSON.stringify(result.summary) : null;
  await db.sql.query(FINISH, [result.name, summary, result.outcome === "failed" ? result.error : null]);
}

/**
 * Runs each job that is due: one at a time, in the order given (audit partitions before the
 * retention that drops them, say). With `force`, every job runs now whatever its schedule (tests,
 * and an operator's manual run); the start is still recorded.
 */
export async function runJobs(db: Database, jobs: readonly Job[], context: JobContext & { force?: boolean }): Promise<JobsRun> {
  const started = Date.now();
  const { running, startedHere } = localOf(db);
  const results: JobOutcome[] = [];
  for (const job of jobs) {
    if (context.signal?.aborted || running.has(job.name)) {
      results.push({ name: job.name, outcome: "not_due" });
      continue;
    }
    running.add(job.name);
    try {
      const every = context.force ? 0 : job.every;
      const claimed = (await db.sql.query(CLAIM, [job.name, every])).length > 0;
      if (!claimed) {
        results.push({ name: job.name, outcome: "not_due" });
        continue;
      }
      startedHere.set(job.name, Date.now());
      const result = await runOne(db, job, context);
      await record(db, result);
      results.push(result);
    } finally {
      running.delete(job.name);
    }
  }
  return { duration_ms: Date.now() - started, jobs: results };
}

/** The counts of every job that ran, in one object (the shape `runHousekeeping` and the old cron route answer). */
export function mergedSummary(run: JobsRun): JobSummary {
  return Object.assign({}, ...run.jobs.map((job) => (job.outcome === "ran" ? job.summary : {}))) as JobSummary;
}

/**
 * The in-process ticker: every `tickMs` it runs the jobs this process has not started within
 * their `every` (the claim then asks the fleet). Returns a function that stops it: no new run
 * starts, the one in flight is aborted (deliveries hand back what they did not start) and awaited,
 * so a graceful shutdown records every attempt it made.
 */
export function startTicker(db: Database, jobs: readonly Job[], options: { tickMs: number; budgetMs: number }): () => Promise<void> {
  const stopping = new AbortController();
  const { startedHere } = localOf(db);
  const inFlight = new Set<Promise<void>>();
  const tick = async () => {
    const now = Date.now();
    const due = jobs.filter((job) => now - (startedHere.get(job.name) ?? 0) >= job.every);
    if (due.length === 0 || stopping.signal.aborted) return;
    try {
      const run = await runJobs(db, due, { signal: stopping.signal, budgetMs: options.budgetMs });
      const summary = mergedSummary(run);
      if (Object.values(summary).some(Boolean)) log.info("periodic jobs", { ...summary });
    } catch (error) {
      log.error("periodic jobs failed", errorFields(error));
    }
  };
  const start = () => {
    const run = tick().finally(() => inFlight.delete(run));
    inFlight.add(run);
  };
  const timer = setInterval(start, options.tickMs);
  timer.unref();
  start();
  return async () => {
    clearInterval(timer);
    stopping.abort();
    await Promise.all(inFlight);
  };
}
