/**
 * A small raw-SQL handle beside Prisma, over either node-postgres or PGlite. The migrate runner
 * needs multi-statement scripts and explicit transactions, which Prisma's raw queries do not give.
 */
import "server-only";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type { Pool, PoolClient } from "pg";

export interface SqlRunner {
  /** Runs a script of one or more statements without parameters. */
  exec(script: string): Promise<void>;
  query<T extends object = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs `fn` in one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T>;
}

function pgClientRunner(client: PoolClient): SqlRunner {
  return {
    async exec(script) {
      await client.query(script);
    },
    async query(text, params) {
      return (await client.query(text, params)).rows;
    },
    transaction: (fn) => fn(pgClientRunner(client)),
  };
}

export function pgRunner(pool: Pool): SqlRunner {
  return {
    async exec(script) {
      await pool.query(script);
    },
    async query(text, params) {
      return (await pool.query(text, params)).rows;
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
