"use client";

import { useState, type FormEvent } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { keepPreviousData, useQuery, type UseQueryResult } from "@tanstack/react-query";
import { consoleUrl } from "../console/urls";
import { fieldErrorsOf, messageOf, statusOf, useTRPC, type ApiError } from "../trpc";
import { useHydrated } from "../use-hydrated";
import { Alert } from "../ui/alert";
import { Button, buttonClasses } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { LoadError, PagePastEnd } from "../ui/list-states";
import { Pagination, startOf, type TablePosition } from "../ui/pagination";
import { PageHeader } from "../ui/page-header";
import { BookIcon } from "../icons";
import { UtcRangeFields } from "./utc-range-fields";
import {
  canSearch,
  NO_SEARCH,
  SEARCH_PAGE_SIZE,
  searchApiFiltersOf,
  searchExportUrl,
  searchFiltersFrom,
  searchQueryOf,
  type SearchFilters,
} from "./search-filters";
import { SearchTable, LoadingSearch } from "./search-table";
import { positionFrom } from "../ui/table-position";
import type { AuditSearchPageView } from "./types";

/** The API's filter names, as the fields that carry them. */
const FIELD_OF: Record<string, keyof SearchFilters> = {
  actor_email: "actor",
  actor_id: "actor",
  target_id: "targetId",
  target_type: "targetType",
  event_type: "type",
  start_date: "from",
  end_date: "to",
};

/**
 * Audit search (operators and support): every tenant's events by actor, target or kind, newest
 * first, each naming its tenant (a link to that tenant's log, opened on the event). Filters and
 * the page live in the URL; every search is itself recorded in the platform's audit log.
 */
export function AuditSearchView() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const filters = searchFiltersFrom(params);
  const position = positionFrom(params);
  const api = searchApiFiltersOf(filters);
  const ready = canSearch(filters);
  const query = useQuery({
    ...trpc.audit.search.queryOptions({ ...api, page_size: SEARCH_PAGE_SIZE, ...(position.cursor ? { cursor: position.cursor } : {}) }),
    enabled: ready,
    placeholderData: keepPreviousData,
    // Each search is audited: no refetch on focus or reconnect, only when asked.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: (n, e) => statusOf(e) >= 500 && n < 2,
  });

  function navigate(next: SearchFilters, at?: TablePosition) {
    router.push(consoleUrl.withQuery(pathname, searchQueryOf(next, at)), { scroll: false });
  }

  const errors: Partial<Record<keyof SearchFilters, string>> = {};
  if (query.isError && statusOf(query.error) === 400) {
    for (const { path, message } of fieldErrorsOf(query.error)) {
      const field = FIELD_OF[path];
      if (field && !errors[field]) errors[field] = message;
    }
  }
  const canExport = ready && !query.isError;

  return (
    <>
      <PageHeader
        title="Audit search"
        description="Find an event in any tenant's audit log by who acted, what it was about or its kind. Your searches are recorded in the platform's audit log."
      />
      <Card aria-labelledby="audit-search-title">
        <CardHeader
          title={<span id="audit-search-title">Events in every tenant</span>}
          description="Newest first. Give an actor, a target ID or an event type; the target type and dates narrow."
          actions={
            canExport ? (
              <>
                <a href={searchExportUrl("csv", api)} download className={buttonClasses("secondary", "sm")}>
                  Export CSV
                </a>
                <a href={searchExportUrl("json", api)} download className={buttonClasses("secondary", "sm")}>
                  Export JSON
                </a>
              </>
            ) : (
              <Button variant="secondary" size="sm" disabled title="Search first">
                Export
              </Button>
            )
          }
        />
        <SearchForm key={searchQueryOf(filters)} filters={filters} errors={errors} onApply={(next) => navigate(next)} />
        <Results
          ready={ready}
          query={query}
          position={position}
          onMove={(at) => navigate(filters, at)}
          onClear={() => navigate(NO_SEARCH)}
        />
      </Card>
    </>
  );
}

function SearchForm({
  filters,
  errors,
  onApply,
}: {
  filters: SearchFilters;
  errors: Partial<Record<keyof SearchFilters, string>>;
  onApply: (filters: SearchFilters) => void;
}) {
  const [draft, setDraft] = useState(filters);
  const hydrated = useHydrated();
  const set = (change: Partial<SearchFilters>) => setDraft((d) => ({ ...d, ...change }));
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onApply(draft);
  }
  const text = (key: "actor" | "targetId" | "targetType" | "type", label: string, hint: string, placeholder: string, span: string) => (
    <Field id={`search-${key}`} label={label} hint={hint} error={errors[key]} className={span}>
      {(control) => (
        <Input
          {...control}
          autoComplete="off"
          spellCheck={false}
          placeholder={placeholder}
          value={draft[key]}
          onChange={(e) => set({ [key]: e.target.value })}
        />
      )}
    </Field>
  );
  return (
    <form
      role="search"
      aria-label="Search audit events"
      onSubmit={submit}
      noValidate
      className="grid gap-4 border-b border-slate-200 px-4 py-4 sm:grid-cols-2 sm:px-6 lg:grid-cols-12"
    >
      {text("actor", "Actor", "An email (any case), or an actor ID", "ada@example.com", "lg:col-span-4")}
      {text("targetId", "Target ID", "What the event is about", "a user, webhook… ID", "lg:col-span-4")}
      {text("targetType", "Target type", "Narrows: user, webhook, …", "Any", "lg:col-span-2")}
      {text("type", "Event type", "Exact or prefix.*, commas", "user.*", "lg:col-span-2")}
      <UtcRangeFields idPrefix="search" from={draft.from} to={draft.to} errors={errors} onChange={set} />
      <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-6 lg:mt-6.5 lg:items-start">
        <Button type="submit" disabled={!hydrated}>
          Search
        </Button>
        <Button variant="ghost" disabled={!hydrated} onClick={() => onApply(NO_SEARCH)}>
          Clear
        </Button>
      </div>
    </form>
  );
}

function Results({
  ready,
  query,
  position,
  onMove,
  onClear,
}: {
  ready: boolean;
  query: UseQueryResult<AuditSearchPageView, ApiError>;
  position: TablePosition;
  onMove: (at: TablePosition) => void;
  onClear: () => void;
}) {
  if (!ready) {
    return (
      <EmptyState
        icon={<BookIcon className="size-6" />}
        title="Search every tenant's audit log"
        description="Enter an actor (email or ID), a target ID or an event type, then Search."
      />
    );
  }
  if (query.isPending) return <LoadingSearch />;
  if (query.isError) {
    if (statusOf(query.error) === 400) {
      return (
        <div className="p-4 sm:p-6">
          <Alert
            tone="danger"
            title="These filters cannot be used"
            action={
              <Button variant="secondary" onClick={onClear}>
                Clear
              </Button>
            }
          >
            {messageOf(query.error)}
          </Alert>
        </div>
      );
    }
    return (
      <LoadError title="The search failed" message={messageOf(query.error)} onRetry={() => query.refetch()} retrying={query.isFetching} />
    );
  }
  const page = query.data;
  if (page.results.length === 0) {
    if (position.cursor) return <PagePastEnd noun="events" reason="filtered out" onFirstPage={() => onMove({ start: 0 })} />;
    return (
      <EmptyState
        icon={<BookIcon className="size-6" />}
        title="No events match"
        description="Try another actor, target or event type, or wider dates."
      />
    );
  }
  const start = startOf(page, position);
  return (
    <>
      <SearchTable events={page.results} changing={query.isPlaceholderData} />
      <Pagination
        page={page}
        position={{ ...position, start }}
        pageSize={SEARCH_PAGE_SIZE}
        onMove={onMove}
        busy={query.isPlaceholderData}
      />
    </>
  );
}
