/**
 * The database: Prisma over Postgres when DATABASE_URL is set, else over embedded PGlite under
 * DATA_DIR. One instance per process (kept on globalThis so Next's bundles share it).
 *
 * Two handles on it, and the rule for which (per statement, not per module):
 * - `prisma` by default: a domain's reads and writes of its rows, and their transactions
 *   (`prisma.$transaction`), typed by the model in prisma/schema.prisma.
 * - `sql` (a SqlRunner, server/db/sql.ts) only where Prisma cannot say it, or says it measurably
 *   too slowly: statements it has no form for (multi-row unnest inserts, an UPDATE … RETURNING
 *   that takes a row at most once, FOR UPDATE SKIP LOCKED, search filters over generated columns,
 *   COPY, LISTEN/pg_notify, partition maintenance, migration scripts), and the hot paths
 *   BENCHMARKS.md measures (audit appends, lists and counts; the per-request credential,
 *   tenant-access and rate-limit lookups; webhook delivery claims), where it also keeps prepared
 *   statements and generic plans.
 * - A function takes the one handle it uses. Raw SQL written into its caller's transaction (audit
 *   events, the webhook outbox) takes `SqlStatements`: a SqlRunner transaction passes as it is, a
 *   Prisma one as `sqlIn(tx)`; nothing asks which of the two it got.
 */
import "server-only";
import path from "node:path";
import { mkdirSync } from "node:fs";
import { PrismaPg } from "@prisma/adapter-pg";
import type { Readable } from "node:stream";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { PrismaClient } from "./generated/client.ts";
import { GENERIC_PLANS, pgliteRunner, pgRunner, type SqlRunner, type SqlStatements } from "./sql.ts";
import { env } from "../env.ts";

export type { PrismaClient };
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

/** A Prisma transaction as plain SQL statements, so raw writes join it (see the header). */
export function sqlIn(tx: Tx): SqlStatements {
  return { query: <T extends object>(text: string, params: unknown[] = []) => tx.$queryRawUnsafe<T[]>(text, ...params) };
}

export interface Database {
  kind: "postgres" | "pglite";
  prisma: PrismaClient;
  sql: SqlRunner;
  /**
   * Postgres only: runs `COPY (…) TO STDOUT …` on a pooled connection and gives its output as a
   * stream (with backpressure down to the socket). The connection goes back to the pool when the
   * stream ends; if the stream is destroyed early, the connection is discarded.
   */
  copyOut?(statement: string): Promise<Readable>;
  /**
   * LISTEN on a channel (notifications arrive after the notifying transaction commits), with each
   * notice's payload; undefined after a reconnection (anything may have been missed).
   */
  listen(channel: string, onNotify: (payload?: string) => void): Promise<() => Promise<void>>;
  /** Postgres only: the connection pool's use, for metrics. */
  poolStats?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export function connectPostgres(url: string, poolSize = 10): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on("error", (error) => console.error("postgres pool error:", error.message));
  // The audit list's pages, on connections that keep generic plans (see GENERIC_PLANS).
  const genericPool = new pg.Pool({ connectionString: url, max: Math.max(2, Math.ceil(poolSize / 2)), options: GENERIC_PLANS });
  genericPool.on("error", (error) => console.error("postgres pool error:", error.message));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    kind: "postgres",
    prisma,
    sql: pgRunner(pool, genericPool),
    copyOut: (statement) => copyOutOf(pool, statement),
    listen: (channel, onNotify) => listenPostgres(url, channel, onNotify),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await prisma.$disconnect();
      await Promise.all([pool.end(), genericPool.end()]);
    },
  };
}

async function copyOutOf(pool: pg.Pool, statement: string): Promise<Readable> {
  const client = await pool.connect();
  const stream = client.query(copyTo(statement));
  let released = false;
  const release = (error?: Error) => {
    if (released) return;
    released = true;
    client.release(error);
  };
  stream.on("end", () => release());
  stream.on("error", (error) => release(error));
  // Destroyed before the end (the download was dropped): the connection is still mid-COPY.
  stream.on("close", () => release(new Error("COPY stream closed before its end")));
  return stream;
}

/** A dedicated connection that LISTENs, reconnecting after a second if it drops. */
async function listenPostgres(url: string, channel: string, onNotify: (payload?: string) => void): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    c.on("notification", (message) => onNotify(message.payload));
    c.on("error", () => undefined);
    c.on("end", () => {
      if (!stopped) setTimeout(() => void connect().catch(() => undefined), 1000).unref();
    });
    await c.connect();
    await c.query(`LISTEN "${channel}"`);
    client = c;
    if (stopped) await c.end();
    else onNotify(); // anything committed while we were not listening
  };
  await connect();
  return async () => {
    stopped = true;
    await client?.end().catch(() => undefined);
  };
}

export async function openPglite(dir: string): Promise<Database> {
  const [{ PGlite }, { PrismaPGlite }] = await Promise.all([import("@electric-sql/pglite"), import("pglite-prisma-adapter")]);
  mkdirSync(dir, { recursive: true });
  const lite = new PGlite(dir);
  await lite.waitReady;
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(lite) });
  return {
    kind: "pglite",
    prisma,
    sql: pgliteRunner(lite),
    listen: async (channel, onNotify) => lite.listen(channel, (payload) => onNotify(payload)),
    async close() {
      await prisma.$disconnect();
      await lite.close();
    },
  };
}

const holder = globalThis as unknown as { __controlPlaneDb?: Promise<Database> };

/** The process-wide database, opened on first use. */
export function database(): Promise<Database> {
  holder.__controlPlaneDb ??= (async () => {
    const e = env();
    if (e.DATABASE_URL) return connectPostgres(e.DATABASE_URL);
    return openPglite(path.resolve(e.DATA_DIR, "pglite"));
  })();
  return holder.__controlPlaneDb;
}

/** Replaces the process-wide database (tests point it at their own Postgres database). */
export function setDatabase(db: Database): void {
  holder.__controlPlaneDb = Promise.resolve(db);
}
