"use client";

import Link from "next/link";
import { consoleUrl } from "../console/urls";
import { ListTableBody, LoadingTable, type ListColumn } from "../ui/list-table";
import { formatExact, RelativeTime } from "../ui/relative-time";
import { Skeleton } from "../ui/skeleton";
import { Td, Tr } from "../ui/table";
import { ActorName, ApplicationBadge, Target } from "./events-table";
import type { AuditSearchResultView } from "./types";

const COLUMNS: ListColumn[] = [
  { header: "Time", skeleton: <Skeleton className="h-4 w-24" /> },
  { header: "Tenant", className: "hidden sm:table-cell", skeleton: <Skeleton className="h-4 w-28" /> },
  { header: "Event", skeleton: <Skeleton className="h-4 w-36" /> },
  { header: "Actor", className: "hidden sm:table-cell", skeleton: <Skeleton className="h-4 w-44" /> },
  { header: "Target", className: "hidden md:table-cell", skeleton: <Skeleton className="h-4 w-32" /> },
];

const NO_LINKS: ReadonlySet<string> = new Set();

export function LoadingSearch() {
  return <LoadingTable label="Audit search results" columns={COLUMNS} rows={6} />;
}

const link =
  "rounded text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600";

/** The result's tenant: a link to its audit log opened on the event, or "Platform" for the platform's own. */
function TenantLink({ event, href }: { event: AuditSearchResultView; href: string | null }) {
  if (!href) return <span className="text-slate-600">Platform</span>;
  const name = event.tenant_name ?? event.tenant_id;
  return (
    <Link href={href} className={link} title={`Open this event in ${name}'s audit log`}>
      {name}
    </Link>
  );
}

/**
 * The platform search's results: each names its tenant, a link to that tenant's audit log opened
 * on the event (the platform's own events, without a tenant, say "Platform"). Narrow screens show
 * the tenant and the actor under the event type.
 */
export function SearchTable({ events, changing }: { events: AuditSearchResultView[]; changing: boolean }) {
  return (
    <ListTableBody label="Audit search results" columns={COLUMNS} changing={changing}>
      {events.map((event) => {
        const inTenant = event.tenant_id ? consoleUrl.audit(event.tenant_id, new URLSearchParams({ event: event.id })) : null;
        return (
          <Tr key={event.id} data-testid="search-row" data-event-id={event.id}>
            <Td className="text-slate-600">
              <span title={formatExact(event.timestamp)}>
                <RelativeTime iso={event.timestamp} />
              </span>
            </Td>
            <Td className="hidden max-w-48 min-w-28 whitespace-normal! wrap-break-word sm:table-cell">
              <TenantLink event={event} href={inTenant} />
            </Td>
            <Td>
              <span className="font-mono text-sm font-medium text-slate-900">{event.event_type}</span>
              <ApplicationBadge event={event} className="ml-2 hidden sm:inline-block" />
              <span className="block text-sm whitespace-normal wrap-anywhere sm:hidden">
                <TenantLink event={event} href={inTenant} />
              </span>
              <span className="block text-xs whitespace-normal wrap-anywhere text-slate-600 sm:hidden" title={event.actor.id ?? undefined}>
                <ActorName actor={event.actor} />
              </span>
            </Td>
            <Td className="hidden max-w-72 min-w-48 whitespace-normal! wrap-break-word sm:table-cell" title={event.actor.id ?? undefined}>
              <ActorName actor={event.actor} />
            </Td>
            <Td className="hidden md:table-cell">
              {event.target ? (
                <Target tenantId={event.tenant_id ?? ""} target={event.target} links={NO_LINKS} />
              ) : (
                <span className="text-slate-500">—</span>
              )}
            </Td>
          </Tr>
        );
      })}
    </ListTableBody>
  );
}
