"use client";

import { useState } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { keepPreviousData, useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { consoleUrl } from "../console/urls";
import { fieldErrorsOf, messageOf, statusOf, useTRPC, type ApiError } from "../trpc";
import { Alert } from "../ui/alert";
import { Button, buttonClasses } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import { LoadError, PagePastEnd } from "../ui/list-states";
import { Pagination, startOf } from "../ui/pagination";
import { BookIcon, RefreshIcon } from "../icons";
import { ChainStatus } from "./chain-status";
import { EventDrawer } from "./event-drawer";
import { EventsTable, LoadingEvents } from "./events-table";
import { FilterBar, type FilterErrors } from "./filter-bar";
import {
  apiFiltersOf,
  AUDIT_PAGE_SIZE,
  exportUrl,
  filtersFrom,
  hasFilters,
  listInputOf,
  NO_FILTERS,
  positionFrom,
  searchOf,
  type AuditFilters,
  type AuditPosition,
} from "./filters";
import { useTargetLinks, type TargetLinks } from "./targets";
import type { AuditEventView, AuditPageView } from "./types";

/** The filter parameters of the API, named as a person reads them in an error message. */
const FILTER_LABELS = {
  event_type: "Event type",
  actor_id: "Actor",
  actor_email: "Actor",
  start_date: "Start date",
  end_date: "End date",
} as const;

/** The filter fields the server's 400 named, with its words; null when it named none of them. */
function filterErrorsOf(error: unknown): FilterErrors | null {
  if (statusOf(error) !== 400) return null;
  const errors: FilterErrors = {};
  for (const { path, message } of fieldErrorsOf(error)) {
    const field = (Object.keys(FILTER_LABELS) as Array<keyof FilterErrors>).find((p) => p === path);
    if (field && !errors[field]) errors[field] = `${FILTER_LABELS[field]} ${message}.`;
  }
  return Object.keys(errors).length ? errors : null;
}

/**
 * The Audit log tab: the tenant's events filtered by type, actor and time, a page at a time, one
 * event in detail, exports of exactly what is filtered, and whether the hash chain is intact.
 * Filters and the page live in the URL. The page prefetches the first page for the server's
 * render; `initialAnchor` is the time its preset ranges ended at, so the view asks the same.
 */
export function AuditView({ tenantId, initialAnchor }: { tenantId: string; initialAnchor?: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const filters = filtersFrom(params);
  const position = positionFrom(params);
  // Presets ("last 24 hours") end when they were applied, so the table and an export agree.
  const [anchor, setAnchor] = useState(() => initialAnchor ?? Date.now());
  const openId = params.get("event");

  const api = apiFiltersOf(filters, anchor);
  const input = listInputOf(tenantId, params, anchor);
  const query = useQuery({
    ...trpc.audit.list.queryOptions(input),
    placeholderData: keepPreviousData,
    retry: (n, e) => statusOf(e) >= 500 && n < 2,
  });

  function navigate(next: AuditFilters, at?: AuditPosition) {
    const search = searchOf(next, at);
    router.push(consoleUrl.withQuery(pathname, search), { scroll: false });
  }

  function apply(next: AuditFilters) {
    setAnchor(Date.now());
    navigate(next);
  }

  /** The open event is in the URL too (`event=<id>`), so a link can point at one event. */
  function openEvent(id: string | null) {
    const next = new URLSearchParams(params);
    if (id) next.set("event", id);
    else next.delete("event");
    const search = next.toString();
    router.replace(consoleUrl.withQuery(pathname, search), { scroll: false });
  }

  function refresh() {
    setAnchor(Date.now());
    void queryClient.invalidateQueries(trpc.audit.pathFilter());
  }

  /** This page's URL with some filters changed, from the first page (the table's filter links). */
  const filterHref = (change: Partial<AuditFilters>) => consoleUrl.withQuery(pathname, searchOf({ ...filters, ...change }));
  const links = useTargetLinks(tenantId, query.data?.results);

  const filterErrors = query.isError ? filterErrorsOf(query.error) : null;
  const canExport = !query.isError;

  return (
    <>
      <Card aria-labelledby="audit-title">
        <CardHeader
          title={<span id="audit-title">Audit log</span>}
          description={
            <>
              Everything that changed in this tenant and who did it, newest first. Events cannot be changed or deleted.
              <span className="mt-2 block">
                <ChainStatus tenantId={tenantId} />
              </span>
            </>
          }
          actions={
            <>
              <Button variant="ghost" size="sm" onClick={refresh} aria-label="Refresh events">
                <RefreshIcon className="size-4" />
                <span className="hidden sm:inline">Refresh</span>
              </Button>
              {canExport ? (
                <>
                  <a href={exportUrl(tenantId, "csv", api)} download className={buttonClasses("secondary", "sm")}>
                    Export CSV
                  </a>
                  <a href={exportUrl(tenantId, "json", api)} download className={buttonClasses("secondary", "sm")}>
                    Export JSON
                  </a>
                </>
              ) : (
                <>
                  <Button variant="secondary" size="sm" disabled title="Fix the filters first">
                    Export CSV
                  </Button>
                  <Button variant="secondary" size="sm" disabled title="Fix the filters first">
                    Export JSON
                  </Button>
                </>
              )}
            </>
          }
        />
        <FilterBar key={searchOf(filters)} tenantId={tenantId} filters={filters} errors={filterErrors ?? {}} onApply={apply} />
        <Results
          tenantId={tenantId}
          filterHref={filterHref}
          links={links}
          query={query}
          filterErrors={filterErrors}
          filters={filters}
          position={position}
          selectedId={openId}
          onOpen={(event) => openEvent(event.id)}
          onMove={(at) => navigate(filters, at)}
          onClear={() => apply(NO_FILTERS)}
        />
      </Card>
      {openId ? (
        <EventDrawer
          tenantId={tenantId}
          eventId={openId}
          shown={query.data?.results.find((e) => e.id === openId)}
          onClose={() => openEvent(null)}
        />
      ) : null}
    </>
  );
}

interface ResultsProps {
  tenantId: string;
  filterHref: (change: Partial<AuditFilters>) => string;
  links: TargetLinks;
  query: UseQueryResult<AuditPageView, ApiError>;
  filterErrors: FilterErrors | null;
  filters: AuditFilters;
  position: AuditPosition;
  selectedId: string | null;
  onOpen: (event: AuditEventView) => void;
  onMove: (position: AuditPosition) => void;
  onClear: () => void;
}

function Results({
  tenantId,
  filterHref,
  links,
  query,
  filterErrors,
  filters,
  position,
  selectedId,
  onOpen,
  onMove,
  onClear,
}: ResultsProps) {
  if (query.isPending) return <LoadingEvents />;

  if (query.isError) {
    if (filterErrors) {
      return (
        <EmptyState
          title="These filters cannot be used"
          description="Correct the fields marked above, or clear the filters."
          action={<ClearButton onClear={onClear} />}
        />
      );
    }
    if (statusOf(query.error) === 400) {
      return (
        <div className="p-4 sm:p-6">
          <Alert tone="danger" title="This link's filters cannot be used" action={<ClearButton onClear={onClear} />}>
            {messageOf(query.error)}
          </Alert>
        </div>
      );
    }
    return (
      <LoadError
        title="Audit events could not be loaded"
        message={messageOf(query.error)}
        onRetry={() => query.refetch()}
        retrying={query.isFetching}
      />
    );
  }

  const page = query.data;
  if (page.results.length === 0) {
    if (position.cursor) return <PagePastEnd noun="events" reason="filtered out" onFirstPage={() => onMove({ start: 0 })} />;
    return hasFilters(filters) ? (
      <EmptyState
        icon={<BookIcon className="size-6" />}
        title="No events match these filters"
        description="Try a wider date range, another event type or actor."
        action={<ClearButton onClear={onClear} />}
      />
    ) : (
      <EmptyState
        icon={<BookIcon className="size-6" />}
        title="No events yet"
        description="Changes to this tenant and sign-ins to it are recorded here as they happen."
      />
    );
  }

  const start = startOf(page, position);
  return (
    <>
      <EventsTable
        tenantId={tenantId}
        events={page.results}
        changing={query.isPlaceholderData}
        selectedId={selectedId}
        onOpen={onOpen}
        filterHref={filterHref}
        links={links}
      />
      <Pagination page={page} position={{ ...position, start }} pageSize={AUDIT_PAGE_SIZE} onMove={onMove} busy={query.isPlaceholderData} />
    </>
  );
}

function ClearButton({ onClear }: { onClear: () => void }) {
  return (
    <Button variant="secondary" onClick={onClear}>
      Clear filters
    </Button>
  );
}
