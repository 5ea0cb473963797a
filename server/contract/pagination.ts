/**
 * The list contract of every endpoint (docs/api.md: Pagination): a query becomes a page request, a page becomes
 * the envelope. The schemas themselves are in ./page-query.ts.
 */
import { decodeCursor, type PageRequest, type PageResult } from "../db/keyset.ts";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type PageQuery } from "./page-query.ts";

export function pageRequest(query: PageQuery): PageRequest {
  return {
    page: query.page ?? 1,
    pageSize: Math.min(query.page_size ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
    cursor: query.cursor ? decodeCursor(query.cursor) : undefined,
  };
}

/**
 * Builds the envelope. Links keep every other query parameter of `url`: offset-style requests get
 * `page` links, cursor-style requests get `cursor` links.
 */
export function envelope<T, R>(url: URL, query: PageQuery, result: PageResult<T>, present: (item: T) => R) {
  const request = pageRequest(query);
  const link = (change: Record<string, string>) => {
    const next = new URL(url);
    for (const [key, value] of Object.entries(change)) next.searchParams.set(key, value);
    if ("cursor" in change) next.searchParams.delete("page");
    return next.toString();
  };
  const cursorStyle = Boolean(request.cursor);
  return {
    results: result.items.map(present),
    count: result.count,
    next: !result.hasNext
      ? null
      : cursorStyle
        ? result.nextCursor && link({ cursor: result.nextCursor })
        : link({ page: String(request.page + 1) }),
    previous: !result.hasPrev
      ? null
      : cursorStyle
        ? result.prevCursor && link({ cursor: result.prevCursor })
        : link({ page: String(request.page - 1) }),
    next_cursor: result.nextCursor,
    previous_cursor: result.prevCursor,
  };
}
