"use client";

import Link from "next/link";
import { plainIp } from "@/server/contract/fields";
import { Badge } from "../ui/badge";
import { cx } from "../ui/cx";
import { ListTableBody, LoadingTable, type ListColumn } from "../ui/list-table";
import { formatExact, RelativeTime } from "../ui/relative-time";
import { Skeleton } from "../ui/skeleton";
import { Td, Tr } from "../ui/table";
import type { AuditFilters } from "./filters";
import { targetHref, type TargetLinks } from "./targets";
import type { AuditEventView } from "./types";

const COLUMNS: ListColumn[] = [
  { header: "Time", skeleton: <Skeleton className="h-4 w-24" /> },
  { header: "Event", skeleton: <Skeleton className="h-4 w-36" /> },
  { header: "Actor", className: "hidden sm:table-cell", skeleton: <Skeleton className="h-4 w-44" /> },
  { header: "Target", className: "hidden md:table-cell", skeleton: <Skeleton className="h-4 w-32" /> },
  { header: "IP address", className: "hidden 2xl:table-cell", skeleton: <Skeleton className="h-4 w-24" /> },
];

export function LoadingEvents() {
  return <LoadingTable label="Audit events" columns={COLUMNS} rows={6} />;
}

function shortId(id: string): string {
  return id.length > 13 ? `${id.slice(0, 8)}…` : id;
}

const filterLink =
  "rounded hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 decoration-dotted underline-offset-2";

interface EventsTableProps {
  tenantId: string;
  events: AuditEventView[];
  /** Another page is on its way: the rows shown are the previous ones. */
  changing: boolean;
  selectedId: string | null;
  onOpen: (event: AuditEventView) => void;
  /** The audit page's URL with these filters changed (and the first page), for the filter links. */
  filterHref: (change: Partial<AuditFilters>) => string;
  /** Targets that still exist, to link to (none until known). */
  links: TargetLinks;
}

/**
 * Who acted, in words, whole: what the server resolved (`actor.name`: a person's email, a setup
 * link's intent and creator, a directory's or token's name), else the email, else the id in full,
 * else the platform itself. Its id is the tooltip of the cell around it.
 */
export function ActorName({ actor }: { actor: AuditEventView["actor"] }) {
  const words = actor.name ?? actor.email;
  if (words) return <>{words}</>;
  return actor.id ? <span className="font-mono text-xs break-all">{actor.id}</span> : <>Platform</>;
}

/**
 * An event an application appended (POST …/audit) rather than one the platform wrote: its actor,
 * IP and time are the application's account. With the token that appended it, in full on hover.
 */
export function ApplicationBadge({ event, className }: { event: Pick<AuditEventView, "source" | "source_token_name">; className: string }) {
  const { source, source_token_name: tokenName } = event;
  if (source?.type !== "api") return null;
  const by = source.token_id ? `API token ${tokenName ? `"${tokenName}" (${source.token_id})` : source.token_id}` : "a console session";
  return (
    <span title={`Appended by an application through ${by}`} data-testid="source-badge" className={cx("align-middle", className)}>
      <Badge>
        Application
        {source.token_id ? (
          <span className={cx("hidden max-w-28 truncate align-bottom lg:inline-block", !tokenName && "font-mono")}>
            &nbsp;· {tokenName ?? shortId(source.token_id)}
          </span>
        ) : null}
      </Badge>
    </span>
  );
}

export function Target({
  tenantId,
  target,
  links,
}: {
  tenantId: string;
  target: NonNullable<AuditEventView["target"]>;
  links: TargetLinks;
}) {
  const label = target.name ?? shortId(target.id);
  const href = targetHref(tenantId, target, links);
  return (
    <span className="block max-w-56 truncate" title={`${target.type} ${target.id}`}>
      <span className="text-xs text-slate-600">{target.type} </span>
      {href ? (
        <Link href={href} onClick={(e) => e.stopPropagation()} className={cx(filterLink, "text-indigo-700")}>
          {label}
        </Link>
      ) : (
        <span className={target.name ? undefined : "font-mono text-xs"}>{label}</span>
      )}
    </span>
  );
}

/**
 * One page of events, newest first. The time opens the event (a click anywhere on the row does
 * too); the event type and the actor are links that filter by them; the target links to the thing
 * while it exists. The IP address shows on wide screens only (2xl; the event's panel has it): the
 * actor, in words, needs the room. An application's appended events carry a badge. Narrow screens show the actor
 * (and the badge) under the event type.
 */
export function EventsTable({ tenantId, events, changing, selectedId, onOpen, filterHref, links }: EventsTableProps) {
  return (
    <ListTableBody label="Audit events" columns={COLUMNS} changing={changing}>
      {events.map((event) => {
        const byActor = event.actor.id ? filterHref({ actor: event.actor.id }) : null;
        const stop = (e: { stopPropagation: () => void }) => e.stopPropagation();
        return (
          <Tr
            key={event.id}
            data-testid="audit-row"
            data-event-id={event.id}
            onClick={() => onOpen(event)}
            className={cx("cursor-pointer hover:bg-slate-50", event.id === selectedId && "bg-indigo-50/60")}
          >
            <Td className="text-slate-600">
              <button
                type="button"
                onClick={(e) => {
                  e.stopPropagation();
                  onOpen(event);
                }}
                className="rounded text-left whitespace-nowrap hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
                aria-haspopup="dialog"
                aria-label={`Open ${event.event_type} event of ${formatExact(event.timestamp)}`}
              >
                <RelativeTime iso={event.timestamp} />
              </button>
            </Td>
            <Td>
              <Link
                href={filterHref({ type: event.event_type })}
                onClick={stop}
                title={`Show only ${event.event_type} events`}
                className={cx(filterLink, "font-mono text-sm font-medium text-indigo-700")}
              >
                {event.event_type}
              </Link>
              <ApplicationBadge event={event} className="ml-2 hidden sm:inline-block" />
              <span
                className="block text-xs whitespace-normal wrap-break-word text-slate-600 sm:hidden"
                title={event.actor.id ?? undefined}
              >
                <ActorName actor={event.actor} />
              </span>
              <ApplicationBadge event={event} className="mt-1 block sm:hidden" />
            </Td>
            <Td className="hidden max-w-72 whitespace-normal! wrap-break-word sm:table-cell" title={event.actor.id ?? undefined}>
              {byActor ? (
                <Link
                  href={byActor}
                  onClick={stop}
                  title={`Show only the events of ${event.actor.id}`}
                  className={cx(filterLink, "text-slate-900")}
                >
                  <ActorName actor={event.actor} />
                </Link>
              ) : (
                <ActorName actor={event.actor} />
              )}
            </Td>
            <Td className="hidden md:table-cell">
              {event.target ? (
                <Target tenantId={tenantId} target={event.target} links={links} />
              ) : (
                <span className="text-slate-500">—</span>
              )}
            </Td>
            <Td className="hidden font-mono text-xs 2xl:table-cell">{plainIp(event.metadata.ip_address) || "—"}</Td>
          </Tr>
        );
      })}
    </ListTableBody>
  );
}
