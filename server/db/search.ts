/**
 * The `search` filter of list endpoints as SQL: an exact id when the term is a UUID, else a
 * case-insensitive substring of one lower-cased text expression.
 */
import "server-only";
import { isUuid } from "./ids.ts";

/** `term` as a LIKE pattern matching it anywhere: its own %, _ and \ are literal. */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The condition for `term` (blank: null, no filter), appending its parameter to `params`.
 * `lowered` must already be lower case (e.g. a generated column) so rows are not lowered per query.
 */
export function searchSql(term: string | undefined, columns: { id: string; lowered: string }, params: unknown[]): string | null {
  const q = term?.trim();
  if (!q) return null;
  if (isUuid(q)) {
    params.push(q);
    return `${columns.id} = $${params.length}::uuid`;
  }
  params.push(containsPattern(q));
  return `${columns.lowered} LIKE $${params.length}`;
}
