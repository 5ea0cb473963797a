/**
 * A small raw-SQL handle beside Prisma, over either node-postgres or PGlite. The migrate runner
 * needs multi-statement scripts and explicit transactions, which Prisma's raw queries do not give.
 */
import "server-only";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import { createHash } from "node:crypto";
import type { Pool, PoolClient, QueryConfig } from "pg";

export interface QueryOptions {
  /**
   * Postgres: run as a named prepared statement (see `statementName`), so each connection plans
   * it once and, after five runs, reuses a generic plan instead of planning every call. For hot
   * statements over the partitioned audit_events, whose planning (every monthly partition and its
   * indexes) costs more than their execution. Write such statements with constants where the
   * planner needs them (LIMIT): a generic plan sees only placeholders.
   */
  prepare?: boolean | "generic";
}

/**
 * `prepare: "generic"`: a prepared statement that always runs its generic plan (planned once per
 * connection), on connections set to `plan_cache_mode = force_generic_plan`. For the audit list's
 * pages: pruned to a few partitions by a constant, their one sensible plan is the same for every
 * tenant and bound, but Postgres costs the custom plan of a large tenant's LIMIT lower and so
 * would re-plan every call (0.4-2 ms, more than executing it). Statements whose best plan depends
 * on the values (counts, exports) do not use it.
 */
export const GENERIC_PLANS = "-c plan_cache_mode=force_generic_plan";

export interface SqlRunner extends SqlStatements {
  /** Runs a script of one or more statements without parameters. */
  exec(script: string): Promise<void>;
  /** Runs `fn` in one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T>;
}

/**
 * Runs parameterised statements: a SqlRunner (or its transaction), or a Prisma transaction through
 * `sqlIn` (server/db/client.ts). What writes raw SQL into its caller's transaction takes this, so it
 * serves both without asking which it got.
 */
export interface SqlStatements {
  query<T extends object = Record<string, unknown>>(text: string, params?: unknown[], options?: QueryOptions): Promise<T[]>;
}

/**
 * How many plans of the partitioned table (one per `audit_events` in a statement's text) named
 * statements may hold per connection. A generic plan over ~90 monthly partitions takes about 1 MiB
 * of the backend's memory, kept as long as the connection; past the budget, statements run
 * unnamed (planned per call, as before). The hot list shapes (first and cursor pages of the usual
 * filters at the default page size, and their counts) fit well inside it.
 */
const PLAN_BUDGET = 48;
const names = new Map<string, string>();
let planWeight = 0;

/** The statement's name, the same in every connection of this process; undefined past the budget. */
export function statementName(text: string): string | undefined {
  const known = names.get(text);
  if (known) return known;
  const weight = Math.max(1, text.split(/\baudit_events\b/).length - 1);
  if (planWeight + weight > PLAN_BUDGET) return undefined;
  planWeight += weight;
  const name = `cp_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`;
  names.set(text, name);
  return name;
}

/** The pg query for `text`: named when asked and within the budget. */
export function pgQuery(text: string, params: unknown[] | undefined, options?: QueryOptions): QueryConfig {
  const name = options?.prepare ? statementName(text) : undefined;
  return name ? { name, text, values: params } : { text, values: params };
}

function pgClientRunner(client: PoolClient): SqlRunner {
  return {
    async exec(script) {
      await client.query(script);
    },
    async query(text, params, options) {
      return (await client.query(pgQuery(text, params, options))).rows;
    },
    transaction: (fn) => fn(pgClientRunner(client)),
  };
}

/** Over `pool`; statements prepared "generic" go to `genericPool` (connections opened with GENERIC_PLANS) when given. */
export function pgRunner(pool: Pool, genericPool?: Pool): SqlRunner {
  return {
    async exec(script) {
      await pool.query(script);
    },
    async query(text, params, options) {
      const on = options?.prepare === "generic" && genericPool ? genericPool : pool;
      return (await on.query(pgQuery(text, params, options))).rows;
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn(pgClientRunner(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

function pgliteTxRunner(tx: Transaction): SqlRunner {
  return {
    async exec(script) {
      await tx.exec(script);
    },
    async query(text, params) {
      return (await tx.query(text, params)).rows as never;
    },
    transaction: (fn) => fn(pgliteTxRunner(tx)),
  };
}

export function pgliteRunner(db: PGlite): SqlRunner {
  return {
    async exec(script) {
      await db.exec(script);
    },
    async query(text, params) {
      return (await db.query(text, params)).rows as never;
    },
    transaction: (fn) => db.transaction((tx) => fn(pgliteTxRunner(tx))),
  };
}
