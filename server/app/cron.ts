/**
 * The two triggers of the periodic jobs (server/app/features.ts lists them): the in-process ticker
 * that `npm start` runs unless INTERNAL_CRON=off, and the cron route (`GET|POST /api/cron`, with
 * `/api/cron/webhooks` kept as its old name) that an outside scheduler calls instead. Both run the
 * same list through server/jobs/runner.ts, so nothing depends on which one a deployment uses.
 */
import { timingSafeEqual } from "node:crypto";
import type { Database } from "../db/client.ts";
import { env } from "../env.ts";
import { SECOND } from "../jobs/job.ts";
import { mergedSummary, runJobs, startTicker, type JobsRun } from "../jobs/runner.ts";
import type { JobSummary } from "../jobs/job.ts";
import { loadJobs } from "./features.ts";
import { database } from "../db/client.ts";
import { problemResponse } from "../contract/problem.ts";
import { publicUrl, requestIdOf } from "../contract/request.ts";
import { drainSignal } from "../jobs/draining.ts";

/** Budget of one cron request: well inside common serverless limits (Vercel: 60 s). */
export const CRON_BUDGET_MS = 25_000;
/** The ticker looks for due jobs this often (the shortest `every`: due webhook retries). */
const TICK_MS = 5 * SECOND;

/** One cron request: every job that is due, within the budget. */
export async function runCron(db: Database, options: { signal?: AbortSignal } = {}): Promise<JobsRun> {
  return runJobs(db, await loadJobs(), { budgetMs: CRON_BUDGET_MS, signal: options.signal });
}

/** Starts the in-process ticker; the function it returns stops it and awaits the run in flight. */
export async function startInternalCron(db: Database): Promise<() => Promise<void>> {
  return startTicker(db, await loadJobs(), { tickMs: TICK_MS, budgetMs: CRON_BUDGET_MS });
}

/**
 * Runs every job but webhook deliveries now, whatever its schedule, and answers their counts in one
 * object: for tests and manual maintenance (deliveries have their own entry points).
 */
export async function runHousekeeping(db: Database): Promise<JobSummary> {
  const jobs = (await loadJobs()).filter((job) => job.name !== "webhooks.deliveries");
  return mergedSummary(await runJobs(db, jobs, { budgetMs: CRON_BUDGET_MS, force: true }));
}

/** Whether an Authorization header carries `Bearer $CRON_SECRET` (never, when it is unset). */
export function cronAuthorized(authorization: string | null): boolean {
  const secret = env().CRON_SECRET;
  if (!secret || !authorization) return false;
  const given = Buffer.from(authorization);
  const expected = Buffer.from(`Bearer ${secret}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A cron route's answer: 401 problem+json without the secret; else the run, answered as `shape`
 * makes it (`/api/cron` answers the run itself, its old name the shape it always had).
 */
export async function cronResponse(req: Request, shape: (run: JobsRun) => unknown): Promise<Response> {
  const requestId = requestIdOf(req);
  if (!cronAuthorized(req.headers.get("authorization"))) {
    return problemResponse(
      { code: "unauthenticated", detail: "This route needs Authorization: Bearer $CRON_SECRET", headers: { "WWW-Authenticate": "Bearer" } },
      requestId,
      publicUrl(req).origin,
    );
  }
  const run = await runCron(await database(), { signal: drainSignal });
  return Response.json(shape(run), { headers: { "X-Request-Id": requestId, "Cache-Control": "no-store" } });
}
