/**
 * The list contract's schemas, pure zod so the console can use them too: query
 * parameters in, envelope out. Turning a query into a page request is in ./pagination.ts.
 */
import { z } from "zod";

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;
const PAGE_SIZE_RANGE = `must be an integer from 1 to ${MAX_PAGE_SIZE}`;

export const PageQuery = z.object({
  page: z.coerce
    .number({ error: "must be an integer of at least 1" })
    .int("must be an integer of at least 1")
    .min(1, "must be an integer of at least 1")
    .max(10_000_000, "must be at most 10000000")
    .optional()
    .meta({ description: "Page number (offset style), from 1. Ignored when `cursor` is given.", default: 1 }),
  page_size: z.coerce
    .number({ error: PAGE_SIZE_RANGE })
    .int(PAGE_SIZE_RANGE)
    .min(1, PAGE_SIZE_RANGE)
    .optional()
    // The default and the cap are applied by pageRequest (pagination.ts), so the console's inputs
    // may leave it out; above the maximum is read as the maximum (DESIGN.md), not refused.
    .meta({
      description: `Items per page, 1 to ${MAX_PAGE_SIZE}; more than ${MAX_PAGE_SIZE} is read as ${MAX_PAGE_SIZE}.`,
      maximum: MAX_PAGE_SIZE,
      default: DEFAULT_PAGE_SIZE,
    }),
  cursor: z.string().max(512).optional().meta({ description: "Opaque cursor from `next_cursor`/`previous_cursor`; wins over `page`." }),
});
export type PageQuery = z.infer<typeof PageQuery>;

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

export const MAX_SEARCH_LENGTH = 100;

/**
 * `search` of the lists that have one (tenants, users): a case-insensitive substring, or an
 * exact id. Blank means no filter.
 */
export const SearchQuery = z
  .string({ error: "must be a string" })
  .trim()
  .max(MAX_SEARCH_LENGTH, `must be at most ${MAX_SEARCH_LENGTH} characters`)
  .optional()
  .meta({ description: "Case-insensitive substring of the name (or email), or an exact id." });
