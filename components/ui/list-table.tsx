"use client";

import type { ReactNode } from "react";
import { keepPreviousData, type UseQueryResult } from "@tanstack/react-query";
import { messageOf } from "../trpc";
import { cx } from "./cx";
import { LoadError, PagePastEnd } from "./list-states";
import { FIRST_PAGE, Pagination, startOf, type PageInfo, type TablePosition } from "./pagination";
import { Table, TBody, Td, Th, THead, Tr } from "./table";

/** One column of a list table: its header, its responsive classes, and what it shows while loading. */
export interface ListColumn {
  header: ReactNode;
  /** Classes for the header cell and the loading cell, e.g. "hidden sm:table-cell". */
  className?: string;
  /** The placeholder in this column's cell while the first page loads; an empty cell when absent. */
  skeleton?: ReactNode;
}

/** A column for the row buttons, named for screen readers only. */
export function actionsColumn(className?: string): ListColumn {
  return { header: <span className="sr-only">Actions</span>, className };
}

/** A list query's input for the page at `position`: the page size and, past the first page, the cursor. */
export function pageInput(position: TablePosition, pageSize: number): { page_size: number; cursor?: string } {
  return position.cursor ? { page_size: pageSize, cursor: position.cursor } : { page_size: pageSize };
}

/** The query options every paged list shares: the rows shown stay while the next page loads. */
export const keepPage = { placeholderData: keepPreviousData } as const;

export function ListTableHead({ columns }: { columns: readonly ListColumn[] }) {
  return (
    <THead>
      <Tr>
        {columns.map((column, i) => (
          <Th key={i} className={column.className}>
            {column.header}
          </Th>
        ))}
      </Tr>
    </THead>
  );
}

interface LoadingTableProps {
  label: string;
  columns: readonly ListColumn[];
  rows?: number;
  /** One placeholder across the whole row instead of one per column. */
  span?: ReactNode;
  rowTestId?: string;
}

/** The table's header over placeholder rows, marked busy, while the first page loads. */
export function LoadingTable({ label, columns, rows = 3, span, rowTestId }: LoadingTableProps) {
  return (
    <Table aria-label={label} aria-busy="true">
      <ListTableHead columns={columns} />
      <TBody>
        {Array.from({ length: rows }, (_, i) => (
          <Tr key={i} data-testid={rowTestId}>
            {span !== undefined ? (
              <Td colSpan={columns.length}>{span}</Td>
            ) : (
              columns.map((column, j) => (
                <Td key={j} className={column.className}>
                  {column.skeleton}
                </Td>
              ))
            )}
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

/** The table itself, dimmed and busy while another page replaces the rows shown. */
export function ListTableBody({
  label,
  columns,
  changing,
  children,
}: {
  label: string;
  columns: readonly ListColumn[];
  changing: boolean;
  children: ReactNode;
}) {
  return (
    <Table aria-label={label} aria-busy={changing || undefined} className={cx(changing && "opacity-60")}>
      <ListTableHead columns={columns} />
      <TBody>{children}</TBody>
    </Table>
  );
}

interface ListTableProps<T, E> {
  /** The table's accessible name ("Webhooks"); also names the load error. */
  label: string;
  columns: readonly ListColumn[];
  query: UseQueryResult<PageInfo & { results: T[] }, E>;
  position: TablePosition;
  onMove: (position: TablePosition) => void;
  pageSize: number;
  /** Shown when there are no rows at all. */
  empty: ReactNode;
  /** For a later page that went empty: "No more {noun}", "… may have been {reason}". */
  pastEnd: { noun: string; reason: string };
  renderRow: (item: T) => ReactNode;
  loading?: Omit<LoadingTableProps, "label" | "columns">;
}

/**
 * A paged list (the list envelope, keyset cursors) as a table: placeholder rows while the first
 * page loads, the error with a retry, the empty state, the way back from a page gone empty, and
 * the pager under the rows.
 */
export function ListTable<T, E>({
  label,
  columns,
  query,
  position,
  onMove,
  pageSize,
  empty,
  pastEnd,
  renderRow,
  loading,
}: ListTableProps<T, E>) {
  if (query.isPending) return <LoadingTable label={label} columns={columns} {...loading} />;

  if (query.isError) {
    return (
      <LoadError
        title={`${label} could not be loaded`}
        message={messageOf(query.error)}
        onRetry={() => query.refetch()}
        retrying={query.isFetching}
      />
    );
  }

  const page = query.data;
  if (page.results.length === 0) {
    return startOf(page, position) === 0 && !position.cursor ? (
      empty
    ) : (
      <PagePastEnd noun={pastEnd.noun} reason={pastEnd.reason} onFirstPage={() => onMove(FIRST_PAGE)} />
    );
  }

  const changing = query.isPlaceholderData;
  return (
    <>
      <ListTableBody label={label} columns={columns} changing={changing}>
        {page.results.map(renderRow)}
      </ListTableBody>
      <Pagination page={page} position={position} pageSize={pageSize} onMove={onMove} busy={changing} />
    </>
  );
}
