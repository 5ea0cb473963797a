"use client";

import { ChevronLeftIcon, ChevronRightIcon } from "../icons";
import { Button } from "./button";
import { CardFooter } from "./card";

/** Where a paged table is: the cursor of the page shown and how many rows come before it. */
export interface TablePosition {
  cursor?: string;
  start: number;
}

export const FIRST_PAGE: TablePosition = { start: 0 };

/** What a list envelope (`{results, count, next, previous, next_cursor, previous_cursor}`) tells the pager. */
export interface PageInfo {
  results: unknown[];
  count: number;
  next_cursor: string | null;
  previous_cursor: string | null;
}

/** How many rows come before `page`: none when there is no previous page, whatever was counted. */
export function startOf(page: PageInfo, position: TablePosition): number {
  return page.previous_cursor === null ? 0 : position.start;
}

interface PaginationProps {
  page: PageInfo;
  position: TablePosition;
  pageSize: number;
  onMove: (position: TablePosition) => void;
  /** A page is loading: the buttons wait. */
  busy?: boolean;
}

/** "Showing 21–40 of 57" and Previous / Next along a table's bottom edge (keyset cursors). */
export function Pagination({ page, position, pageSize, onMove, busy = false }: PaginationProps) {
  const start = startOf(page, position);
  return (
    <CardFooter>
      <p className="text-sm text-slate-600" aria-live="polite" data-testid="page-range">
        Showing <span className="font-medium text-slate-900">{start + 1}</span>–
        <span className="font-medium text-slate-900">{start + page.results.length}</span> of{" "}
        <span className="font-medium text-slate-900">{page.count}</span>
      </p>
      <nav aria-label="Pagination" className="flex gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={!page.previous_cursor || busy}
          onClick={() => onMove({ cursor: page.previous_cursor ?? undefined, start: Math.max(0, start - pageSize) })}
        >
          <ChevronLeftIcon className="size-4" />
          Previous
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={!page.next_cursor || busy}
          onClick={() => onMove({ cursor: page.next_cursor ?? undefined, start: start + page.results.length })}
        >
          Next
          <ChevronRightIcon className="size-4" />
        </Button>
      </nav>
    </CardFooter>
  );
}
