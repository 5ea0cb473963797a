/**
 * Runs the log-stream engine in this process: a run right away, another at once after a run that
 * sent something (a backfill goes batch after batch), else one every LOG_STREAM_POLL_MS. Every
 * instance runs one; the claims in Postgres decide who sends what. Stopping (SIGTERM) lets the
 * batches in flight finish and record their outcome: nothing is sent twice by this process, and
 * what it did not finish another instance resends once the lease lapses.
 */
import type { Database } from "../db/client.ts";
import { env } from "../env.ts";
import { errorFields, log } from "../log.ts";
import { deliverDueStreams } from "./engine.ts";

export async function startLogStreamDispatcher(db: Database): Promise<() => Promise<void>> {
  let stopped = false;
  // Aborted on stop: a run finishes the batch in hand and takes no next one.
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | null = null;
  let wakeUp: (() => void) | null = null;
  const loop = (async () => {
    while (!stopped) {
      let busy = false;
      try {
        const summary = await deliverDueStreams(db, { signal: stopping.signal });
        busy = summary.sent > 0;
      } catch (error) {
        log.error("log stream dispatcher run failed", errorFields(error));
      }
      if (busy || stopped) continue;
      await new Promise<void>((resolve) => {
        wakeUp = resolve;
        timer = setTimeout(resolve, env().LOG_STREAM_POLL_MS);
        timer.unref();
      });
      wakeUp = null;
    }
  })();
  return async () => {
    stopped = true;
    stopping.abort();
    if (timer) clearTimeout(timer);
    (wakeUp as (() => void) | null)?.();
    await loop;
  };
}
