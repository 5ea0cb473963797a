/**
 * Several server processes on one port (node:cluster), so one instance can use more than one
 * core: `WEB_CONCURRENCY` workers (default 1: no cluster, the process serves itself). The primary
 * runs the start-up that must happen once (migrations, bootstrap accounts), then forks the
 * workers; each worker is a whole instance (its own pool, webhook dispatcher and cron ticker), as
 * N instances behind a load balancer are: all shared state is in Postgres. Appends to
 * one tenant stay correct across workers: each groups its own concurrent appends into one
 * transaction, and the chain's head row lock orders the transactions of all of them.
 *
 * Stopping: SIGTERM or SIGINT to the primary asks every worker to drain (as one instance does on
 * SIGTERM, server/ops/shutdown.ts) and exits when they have, with 1 if any was cut; a second
 * signal stops them at once. A worker that dies is replaced, unless it died before listening
 * (a start-up failure): then the others are stopped and the primary exits 1.
 */
import cluster, { type Worker } from "node:cluster";
import { log } from "../log.ts";

/** The message a worker takes as its stop signal (see exitGracefullyOnSignals). */
export const SHUTDOWN_MESSAGE = "control-plane:shutdown";

export async function serveInCluster(options: {
  workers: number;
  /** Once, in the primary, before any worker starts. */
  prepare: () => Promise<void>;
  /** In each worker (or in this process when `workers` is 1): start-up, then listen. */
  serve: () => Promise<void>;
}): Promise<void> {
  if (options.workers <= 1 || cluster.isWorker) {
    await options.serve();
    return;
  }
  await options.prepare();
  let stopping = false;
  let exitCode = 0;
  const listening = new WeakSet<Worker>();
  const fork = () => cluster.fork();
  cluster.on("listening", (worker) => listening.add(worker));
  cluster.on("exit", (worker, code, signal) => {
    if (code) exitCode = Math.max(exitCode, 1);
    if (!stopping && listening.has(worker)) {
      log.warn("worker died; starting another", { pid: worker.process.pid, code, signal });
      fork();
    } else if (!stopping) {
      log.error("worker failed to start; stopping", { pid: worker.process.pid, code, signal });
      exitCode = 1;
      stop();
    }
    if (!Object.keys(cluster.workers ?? {}).length) process.exit(exitCode);
  });
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) if (worker?.isConnected()) worker.send(SHUTDOWN_MESSAGE);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (!stopping) return stop();
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
      process.exit(1);
    });
  }
  for (let i = 0; i < options.workers; i++) fork();
  log.info("serving in a cluster", { workers: options.workers });
}
