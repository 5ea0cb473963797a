/**
 * Pages of rows ordered newest first, ties broken by id: offset pages (page, page_size) and
 * keyset pages (opaque cursor). Keyset pages stay stable while new rows arrive.
 */
import "server-only";
import { InvalidField } from "../errors.ts";
import { isUuid } from "./ids.ts";

export interface Cursor {
  direction: "next" | "prev";
  at: Date;
  id: string;
}

export interface PageRequest {
  page: number;
  pageSize: number;
  cursor?: Cursor;
}

export interface PageResult<T> {
  items: T[];
  count: number;
  hasNext: boolean;
  hasPrev: boolean;
  nextCursor: string | null;
  prevCursor: string | null;
}

export function encodeCursor(cursor: Cursor): string {
  const payload = [cursor.direction === "next" ? "n" : "p", cursor.at.toISOString(), cursor.id];
  return Buffer.from(JSON.stringify(payload)).toString("base64url");
}

export function decodeCursor(value: string): Cursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (Array.isArray(parsed) && parsed.length === 3) {
      const [d, at, id] = parsed as unknown[];
      const date = typeof at === "string" ? new Date(at) : null;
      if ((d === "n" || d === "p") && date && !Number.isNaN(date.getTime()) && isUuid(id)) {
        return { direction: d === "n" ? "next" : "prev", at: date, id };
      }
    }
  } catch {
    // fall through to the error below
  }
  throw InvalidField("cursor", "is not a cursor this API issued");
}

type Order = "asc" | "desc";

export interface KeysetQuery<T> {
  /** The row's ordering key: its timestamp and id. */
  key: (row: T) => { at: Date; id: string };
  /** Total rows matching the filters. */
  count: () => Promise<number>;
  /**
   * Fetches rows. `after` (exclusive) restricts to keys older ("desc") or newer ("asc") than it;
   * build the where clause with `keysetWhere`.
   */
  find: (args: { after: Cursor | undefined; order: Order; skip: number; take: number }) => Promise<T[]>;
}

/** A Prisma where clause for rows strictly beyond `cursor` in the given order. */
export function keysetWhere(field: string, cursor: Cursor | undefined, order: Order, idField = "id") {
  if (!cursor) return {};
  const op = order === "desc" ? "lt" : "gt";
  // The first, redundant bound lets Postgres seek in the (time, id) index instead of filtering
  // every entry before the cursor (the OR alone is not an index condition).
  return {
    AND: [
      { [field]: { [order === "desc" ? "lte" : "gte"]: cursor.at } },
      { OR: [{ [field]: { [op]: cursor.at } }, { [field]: cursor.at, [idField]: { [op]: cursor.id } }] },
    ],
  };
}

/**
 * The same bound in plain SQL: a row comparison `(time, id) < (…)` that Postgres answers with a
 * seek in the (time, id) index. Appends its parameters to `params`.
 */
export function keysetSql(columns: [time: string, id: string], cursor: Cursor | undefined, order: Order, params: unknown[]): string {
  if (!cursor) return "TRUE";
  params.push(cursor.at, cursor.id);
  const op = order === "desc" ? "<" : ">";
  return `(${columns[0]}, ${columns[1]}) ${op} ($${params.length - 1}::timestamptz, $${params.length}::uuid)`;
}

export async function keysetPage<T>(request: PageRequest, query: KeysetQuery<T>): Promise<PageResult<T>> {
  const { pageSize, cursor } = request;
  const edge = (row: T | undefined, direction: Cursor["direction"]) => (row ? encodeCursor({ direction, ...query.key(row) }) : null);

  if (!cursor) {
    const skip = (request.page - 1) * pageSize;
    const [items, count] = await Promise.all([query.find({ after: undefined, order: "desc", skip, take: pageSize }), query.count()]);
    const hasNext = skip + items.length < count;
    const hasPrev = request.page > 1;
    return {
      items,
      count,
      hasNext,
      hasPrev,
      nextCursor: hasNext ? edge(items.at(-1), "next") : null,
      prevCursor: hasPrev ? edge(items[0], "prev") : null,
    };
  }

  const forward = cursor.direction === "next";
  const [rows, count] = await Promise.all([
    query.find({ after: cursor, order: forward ? "desc" : "asc", skip: 0, take: pageSize + 1 }),
    query.count(),
  ]);
  const more = rows.length > pageSize;
  const page = rows.slice(0, pageSize);
  const items = forward ? page : page.reverse();
  // Coming from a page means there is one on that side (unless it has since emptied).
  const hasNext = forward ? more : items.length > 0;
  const hasPrev = forward ? items.length > 0 : more;
  return {
    items,
    count,
    hasNext,
    hasPrev,
    nextCursor: hasNext ? edge(items.at(-1), "next") : null,
    prevCursor: hasPrev ? edge(items[0], "prev") : null,
  };
}
