/**
 * One read for concurrent requests that ask the same. Every REST request looks up its token and,
 * if tenant-scoped, the tenant and the caller's role there; a busy client sends many requests at
 * once with one token to one tenant. Lookups asked in the same turn of the event loop share one
 * query, which starts only after the last of them was asked (in setImmediate, after the turn's
 * I/O): so each answer still reflects everything committed before its request asked (a token
 * revoked before a request arrived refuses it, exactly as a query of its own would). Only the
 * round trip and the database's work are shared: one query instead of one per request.
 */
import type { QueryOptions, SqlRunner } from "./sql.ts";

const waiting = new WeakMap<SqlRunner, Map<string, Promise<unknown[]>>>();

/**
 * `sql.query(text, params, options)`, shared with the same query asked on `sql` in this turn of
 * the event loop. The rows are shared too: callers must not change them.
 */
export function sharedRead<T extends object>(sql: SqlRunner, text: string, params: unknown[], options?: QueryOptions): Promise<T[]> {
  let byKey = waiting.get(sql);
  if (!byKey) waiting.set(sql, (byKey = new Map()));
  const key = `${text}\u0000${JSON.stringify(params)}`;
  const asked = byKey.get(key);
  if (asked) return asked as Promise<T[]>;
  const queue = byKey;
  const read = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
    // From here on, a request that asks waits for a query of its own, started after it asked.
    queue.delete(key);
    return sql.query<T>(text, params, options);
  });
  queue.set(key, read);
  return read;
}
