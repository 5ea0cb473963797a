/**
 * What a server process does before it serves: check the environment, apply migrations, create
 * the bootstrap accounts. Called from instrumentation.ts (so `next start` alone is enough) and
 * awaited before the first request is handled.
 */
import { appUrl, env, EnvError, type Env } from "../env.ts";
import { database, type Database } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { bootstrap } from "../account/bootstrap.ts";
import { startInternalCron } from "./cron.ts";
import { startWebhookDispatcher } from "../webhooks/sink.ts";
import { startLogStreamDispatcher } from "../log-streams/dispatcher.ts";
import { wireEventSubscribers } from "./features.ts";
import { secrets } from "../secrets/store.ts";
import { log, errorFields } from "../log.ts";

const started = globalThis as unknown as { __controlPlaneStarted?: Promise<void>; __controlPlaneStopWork?: () => Promise<void> };

/**
 * Runs once per process, however many callers (scripts/serve.ts and Next's instrumentation both
 * ask; they share globalThis).
 */
export function startServer(): Promise<void> {
  started.__controlPlaneStarted ??= start();
  return started.__controlPlaneStarted;
}

/**
 * Stops the background work start-up began (the cron ticker, the webhook dispatcher: it stops
 * claiming, hands back the deliveries it claimed but did not start, and waits for the attempts
 * in flight to be recorded). For a graceful shutdown (server/ops/shutdown.ts).
 */
export async function stopBackgroundWork(): Promise<void> {
  await started.__controlPlaneStopWork?.();
}

/**
 * The start-up a cluster's primary runs once before its workers start (server/ops/cluster.ts):
 * migrations and bootstrap accounts, so the workers find both done. Exits 1 as `startServer` does.
 */
export async function prepareDatabase(): Promise<void> {
  try {
    const e = env();
    secrets();
    const db = await database();
    await migrateAndBootstrap(db, e);
    await db.close();
  } catch (error) {
    exitOnStartupError(error);
  }
}

async function migrateAndBootstrap(db: Database, e: Env): Promise<void> {
  const migrated = await migrate(db.sql);
  if (migrated.applied.length) log.info("applied migrations", { migrations: migrated.applied });
  for (const note of await bootstrap(db, e)) console.log(note);
}

function exitOnStartupError(error: unknown): never {
  if (error instanceof EnvError) {
    console.error(error.message);
  } else {
    log.error("start-up failed", errorFields(error));
  }
  process.exit(1);
}

async function start(): Promise<void> {
  try {
    const e = env();
    secrets();
    // next-auth reads its own base URL from the process environment.
    process.env.NEXTAUTH_URL ??= appUrl();
    wireEventSubscribers();
    const db = await database();
    await migrateAndBootstrap(db, e);
    // First webhook attempts right after commit (LISTEN); runs whether or not the cron is internal.
    const stopDispatcher = await startWebhookDispatcher(db);
    // Log streams: every instance follows the streams' cursors (claims in Postgres).
    const stopStreams = await startLogStreamDispatcher(db);
    const stopCron = e.INTERNAL_CRON === "on" ? await startInternalCron(db) : async () => undefined;
    started.__controlPlaneStopWork = async () => {
      await stopCron();
      await Promise.all([stopDispatcher(), stopStreams()]);
    };
    console.log(`Control Plane is serving on ${appUrl()} (${db.kind === "pglite" ? `embedded database in ${e.DATA_DIR}` : "Postgres"}).`);
  } catch (error) {
    exitOnStartupError(error);
  }
}
