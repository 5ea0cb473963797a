/**
 * The list contract of every endpoint (DESIGN §3): query parameters in, envelope out.
 */
import { z } from "zod";
import { decodeCursor, type PageRequest, type PageResult } from "../db/keyset.ts";

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

export const PageQuery = z.object({
  page: z.coerce
    .number({ error: "must be an integer of at least 1" })
    .int("must be an integer of at least 1")
    .min(1, "must be an integer of at least 1")
    .max(10_000_000, "must be at most 10000000")
    .optional()
    .meta({ description: "Page number (offset style), from 1. Ignored when `cursor` is given." }),
  page_size: z.coerce
    .number({ error: "must be an integer from 1 to 100" })
    .int("must be an integer from 1 to 100")
    .min(1, "must be an integer from 1 to 100")
    .optional()
    .meta({ description: "Items per page, default 20; values above 100 are treated as 100." }),
  cursor: z
    .string()
    .max(512)
    .optional()
    .meta({ description: "Opaque cursor from `next_cursor`/`previous_cursor`; wins over `page`." }),
});
export type PageQuery = z.infer<typeof PageQuery>;

export function pageRequest(query: PageQuery): PageRequest {
  return {
    page: query.page ?? 1,
    pageSize: Math.min(query.page_size ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
    cursor: query.cursor ? decodeCursor(query.cursor) : undefined,
  };
}

/** The envelope schema for a list of `item`. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    results: z.array(item),
    count: z.number().int().meta({ description: "Total items matching the query." }),
    next: z.url().nullable().meta({ description: "Absolute URL of the next page, or null." }),
    previous: z.url().nullable().meta({ description: "Absolute URL of the previous page, or null." }),
    next_cursor: z.string().nullable(),
    previous_cursor: z.string().nullable(),
  });
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
