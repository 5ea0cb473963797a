/**
 * Probes for load balancers and Kubernetes. Live: the process answers (no I/O). Ready: the
 * database answers, every migration this build ships is applied (same checksum), and the process
 * is not draining. No auth, no details that help an attacker (no error texts, no hosts).
 */
import { database, type Database } from "../db/client.ts";
import { readMigrations, type MigrationFile } from "../db/migrate.ts";
import { isDraining } from "../jobs/draining.ts";

/** A readiness probe should fail fast rather than hang on a dead connection pool. */
const DATABASE_TIMEOUT_MS = 2000;

type Check = "ok" | "failed";

export interface Readiness {
  status: "ready" | "unavailable";
  checks: { database: Check; migrations: Check | "unknown"; draining: boolean };
  pending_migrations?: string[];
}

let onDisk: MigrationFile[] | undefined;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Migrations of this build not applied (or applied with other contents) in the database. */
async function pendingMigrations(db: Database): Promise<string[]> {
  // The files ship with the build and never change while it runs: read them once.
  onDisk ??= readMigrations();
  const rows = await db.sql.query<{ migration_name: string; checksum: string }>(
    `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  const applied = new Map(rows.map((row) => [row.migration_name, row.checksum]));
  // Migrations in the database but not on disk are fine: a newer release applied them during a rolling deploy.
  return onDisk.filter((m) => applied.get(m.name) !== m.checksum).map((m) => m.name);
}

export async function readiness(db?: Database): Promise<Readiness> {
  const draining = isDraining();
  let databaseCheck: Check = "ok";
  let migrations: Readiness["checks"]["migrations"] = "unknown";
  let pending: string[] = [];
  try {
    pending = await withTimeout((async () => pendingMigrations(db ?? (await database())))(), DATABASE_TIMEOUT_MS);
    migrations = pending.length ? "failed" : "ok";
  } catch {
    databaseCheck = "failed";
  }
  const ready = !draining && databaseCheck === "ok" && migrations === "ok";
  return {
    status: ready ? "ready" : "unavailable",
    checks: { database: databaseCheck, migrations, draining },
    ...(pending.length ? { pending_migrations: pending } : {}),
  };
}

const NO_STORE = { "Cache-Control": "no-store" };

/** GET /api/health/live */
export function liveResponse(): Response {
  return Response.json({ status: "ok" }, { headers: NO_STORE });
}

/** GET /api/health/ready */
export async function readyResponse(): Promise<Response> {
  const result = await readiness();
  return Response.json(result, { status: result.status === "ready" ? 200 : 503, headers: NO_STORE });
}
