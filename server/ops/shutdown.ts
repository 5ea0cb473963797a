/**
 * Graceful stop on SIGTERM (every deploy) or SIGINT: readiness turns 503 and delivery runs stop
 * claiming (server/jobs/draining.ts), the server stops accepting and finishes the requests in
 * flight, the webhook dispatcher hands back the deliveries it claimed but did not start (another
 * instance sends them at once) and waits for its attempts in flight to be recorded; then the
 * database closes and the process exits 0. All of it within SHUTDOWN_TIMEOUT_SECONDS; past that,
 * what still runs is cut and the exit code is 1. A second signal exits at once.
 */
import cluster from "node:cluster";
import { env } from "../env.ts";
import { database } from "../db/client.ts";
import { stopBackgroundWork } from "../app/startup.ts";
import { log, errorFields } from "../log.ts";
import { startDraining } from "../jobs/draining.ts";
import type { AppServer } from "./http-server.ts";
import { SHUTDOWN_MESSAGE } from "./cluster.ts";

export async function shutdown(app: AppServer, timeoutMs = env().SHUTDOWN_TIMEOUT_SECONDS * 1000): Promise<{ forced: boolean }> {
  const started = Date.now();
  startDraining();
  log.info("shutting down", { in_flight_requests: app.inFlight(), timeout_ms: timeoutMs });
  const timedOut = Symbol("timeout");
  const work = stopBackgroundWork().catch((error) => log.error("stopping background work failed", errorFields(error)));
  const [http, background] = await Promise.all([
    app.drain(timeoutMs),
    Promise.race([work, new Promise((resolve) => setTimeout(resolve, timeoutMs, timedOut).unref())]),
  ]);
  const forced = http.forced || background === timedOut;
  try {
    await (await database()).close();
  } catch (error) {
    log.warn("closing the database failed", errorFields(error));
  }
  log.info("shut down", { duration_ms: Date.now() - started, forced });
  return { forced };
}

/**
 * Installs the signal handlers: the first SIGTERM/SIGINT drains, a second one exits at once. In a
 * cluster worker (server/ops/cluster.ts) the primary's stop message, or losing the primary,
 * drains too (and never counts as the second signal: a terminal's Ctrl-C reaches both).
 */
export function exitGracefullyOnSignals(app: AppServer): void {
  let stopping = false;
  const begin = () => {
    stopping = true;
    shutdown(app).then(
      ({ forced }) => process.exit(forced ? 1 : 0),
      (error) => {
        log.error("shutdown failed", errorFields(error));
        process.exit(1);
      },
    );
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(1);
      begin();
    });
  }
  if (cluster.isWorker) {
    process.on("message", (message) => {
      if (message === SHUTDOWN_MESSAGE && !stopping) begin();
    });
    process.on("disconnect", () => {
      if (!stopping) begin();
    });
  }
}
