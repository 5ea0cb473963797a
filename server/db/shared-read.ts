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

/** By runner, then statement text (the same string each time: its hash is kept), then parameters. */
const waiting = new WeakMap<SqlRunner, Map<string, Map<string, Promise<unknown[]>>>>();

/**
 * `sql.query(text, params, options)`, shared with the same query asked on `sql` in this turn of
 * the event loop. The rows are shared too: callers must not change them.
 */
export function sharedRead<T extends object>(sql: SqlRunner, text: string, params: unknown[], options?: QueryOptions): Promise<T[]> {
  let byText = waiting.get(sql);
  if (!byText) waiting.set(sql, (byText = new Map()));
  let queue = byText.get(text);
  if (!queue) byText.set(text, (queue = new Map()));
  const key = JSON.stringify(params);
  const asked = queue.get(key);
  if (asked) return asked as Promise<T[]>;
  const asking = queue;
  const read = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
    // From here on, a request that asks waits for a query of its own, started after it asked.
    asking.delete(key);
    return sql.query<T>(text, params, options);
  });
  queue.set(key, read);
  return read;
}
