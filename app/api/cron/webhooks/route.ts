/**
 * The cron route's first name, kept for deployments that schedule it: it runs every due job, as
 * `/api/cron` does (it once ran only deliveries and the idempotency purge, so a deployment with
 * INTERNAL_CRON=off never got its audit months, digests or retention), and answers in its old
 * shape.
 */
import { mergedSummary } from "@/server/jobs/runner";
import { cronResponse } from "@/server/app/cron";

export const dynamic = "force-dynamic";
export const maxDuration = 60;

const handle = (req: Request) =>
  cronResponse(req, (run) => {
    const counts = mergedSummary(run);
    const count = (name: string) => counts[name] ?? 0;
    return {
      claimed: count("claimed"),
      succeeded: count("succeeded"),
      failed: count("failed"),
      exhausted: count("exhausted"),
      disabled: count("disabled"),
      duration_ms: run.duration_ms,
      idempotency_keys_purged: count("idempotency_keys_purged"),
    };
  });

export { handle as GET, handle as POST };
