/**
 * Cron entry point (Vercel cron, a Kubernetes CronJob, curl): runs every periodic job that is due
 * (server/app/cron.ts) and answers what each did. `Authorization: Bearer $CRON_SECRET`, else 401
 * problem+json.
 */
import { cronResponse } from "@/server/app/cron";

export const dynamic = "force-dynamic";
export const maxDuration = 60;

const handle = (req: Request) => cronResponse(req, (run) => run);

export { handle as GET, handle as POST };
