"use client";

import { cx } from "../ui/cx";
import { ListTableBody, LoadingTable, type ListColumn } from "../ui/list-table";
import { RelativeTime } from "../ui/relative-time";
import { Skeleton } from "../ui/skeleton";
import { Td, Tr } from "../ui/table";
import type { AuditEventView } from "./types";

const COLUMNS: ListColumn[] = [
  { header: "Time", skeleton: <Skeleton className="h-4 w-24" /> },
  { header: "Event", skeleton: <Skeleton className="h-4 w-36" /> },
  { header: "Actor", className: "hidden sm:table-cell", skeleton: <Skeleton className="h-4 w-44" /> },
  { header: "Target", className: "hidden md:table-cell", skeleton: <Skeleton className="h-4 w-32" /> },
  { header: "IP address", className: "hidden lg:table-cell", skeleton: <Skeleton className="h-4 w-24" /> },
];

export function LoadingEvents() {
  return <LoadingTable label="Audit events" columns={COLUMNS} rows={6} />;
}

function shortId(id: string): string {
  return id.length > 13 ? `${id.slice(0, 8)}…` : id;
}

interface EventsTableProps {
  events: AuditEventView[];
  /** Another page is on its way: the rows shown are the previous ones. */
  changing: boolean;
  selectedId: string | null;
  onOpen: (event: AuditEventView) => void;
}

/**
 * One page of events, newest first. The event type is a button that opens the event (a click
 * anywhere on the row does too); narrow screens show the actor under it.
 */
export function EventsTable({ events, changing, selectedId, onOpen }: EventsTableProps) {
  return (
    <ListTableBody label="Audit events" columns={COLUMNS} changing={changing}>
      {events.map((event) => (
        <Tr
          key={event.id}
          data-testid="audit-row"
          data-event-id={event.id}
          onClick={() => onOpen(event)}
          className={cx("cursor-pointer hover:bg-slate-50", event.id === selectedId && "bg-indigo-50/60")}
        >
          <Td className="text-slate-600">
            <RelativeTime iso={event.timestamp} />
          </Td>
          <Td>
            <button
              type="button"
              onClick={(e) => {
                e.stopPropagation();
                onOpen(event);
              }}
              className="rounded font-mono text-sm font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
              aria-haspopup="dialog"
            >
              {event.event_type}
            </button>
            <span className="block text-xs text-slate-600 sm:hidden">{event.actor.email}</span>
          </Td>
          <Td className="hidden max-w-64 truncate sm:table-cell" title={event.actor.id ?? undefined}>
            {event.actor.email || (event.actor.id ? <span className="font-mono text-xs">{shortId(event.actor.id)}</span> : "Platform")}
          </Td>
          <Td className="hidden md:table-cell">
            {event.target ? (
              <span title={event.target.id}>
                {event.target.type} <span className="font-mono text-xs text-slate-600">{shortId(event.target.id)}</span>
              </span>
            ) : (
              <span className="text-slate-500">—</span>
            )}
          </Td>
          <Td className="hidden font-mono text-xs lg:table-cell">{event.metadata.ip_address || "—"}</Td>
        </Tr>
      ))}
    </ListTableBody>
  );
}
