"use client";

import type { ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { plainIp } from "@/server/contract/fields";
import { messageOf, statusOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Skeleton } from "../ui/skeleton";
import { CopyButton } from "../ui/copy-button";
import { Dialog } from "../ui/dialog";
import { formatExact, RelativeTime } from "../ui/relative-time";
import { Badge } from "../ui/badge";
import type { AuditEventView } from "./types";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div data-field={label} className="py-3 sm:grid sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="mt-1 min-w-0 text-sm text-slate-900 sm:col-span-2 sm:mt-0">{children}</dd>
    </div>
  );
}

/** A long value (id, hash) in monospace that wraps anywhere, with a copy button. */
function Copyable({ value, label }: { value: string; label: string }) {
  return (
    <span className="flex items-start gap-1">
      <code className="min-w-0 font-mono text-xs break-all text-slate-800">{value}</code>
      <CopyButton value={value} label={`Copy ${label}`} className="-mt-1 shrink-0" />
    </span>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mt-6 first:mt-0">
      <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{title}</h3>
      <dl className="mt-1 divide-y divide-slate-100">{children}</dl>
    </section>
  );
}

interface EventDrawerProps {
  tenantId: string;
  eventId: string;
  /** The event when the table shows it; else it is fetched (a link to an event on another page). */
  shown?: AuditEventView;
  onClose: () => void;
}

/** The whole of one audit event, in a panel from the right edge; Escape or Close returns to the table. */
export function EventDrawer({ tenantId, eventId, shown, onClose }: EventDrawerProps) {
  const trpc = useTRPC();
  const fetched = useQuery({ ...trpc.audit.get.queryOptions({ tenant_id: tenantId, event_id: eventId }), enabled: !shown, retry: false });
  const event = shown ?? fetched.data;
  return (
    <Dialog
      placement="side"
      title={event ? <span className="font-mono">{event.event_type}</span> : "Audit event"}
      description={
        event ? (
          <>
            <RelativeTime iso={event.timestamp} /> by {event.actor.name || event.actor.email || event.actor.id || "the platform"}
          </>
        ) : undefined
      }
      onClose={onClose}
    >
      {event ? (
        <EventBody event={event} />
      ) : fetched.isError ? (
        <Alert tone="danger" title="This event could not be loaded">
          {statusOf(fetched.error) === 404 ? "There is no such event in this tenant's audit log." : messageOf(fetched.error)}
        </Alert>
      ) : (
        <div aria-busy="true" className="space-y-3">
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-4 w-1/2" />
          <Skeleton className="h-32 w-full" />
        </div>
      )}
    </Dialog>
  );
}

/** Who wrote the event, as the server recorded it (covered by the hash from chain version 2). */
function Source({ source }: { source: AuditEventView["source"] }) {
  if (!source) {
    return (
      <>
        <span className="block">Not recorded</span>
        <span className="block text-xs text-slate-600">Written before sources were recorded (chain version 1)</span>
      </>
    );
  }
  if (source.type === "platform") {
    return (
      <>
        <span className="block">Platform</span>
        <span className="block text-xs text-slate-600">Recorded by the control plane itself</span>
      </>
    );
  }
  return (
    <>
      <Badge>Application</Badge>
      <span className="mt-1 block text-xs text-slate-600">
        Appended through the API {source.token_id ? "with an API token" : "from a console session"}; the actor, IP address and time are the
        application&apos;s account.
      </span>
      {source.token_id ? (
        <>
          <span className="mt-2 block text-xs font-medium text-slate-600">API token</span>
          <Copyable value={source.token_id} label="token ID" />
        </>
      ) : null}
      {source.user_id ? (
        <>
          <span className="mt-2 block text-xs font-medium text-slate-600">{source.token_id ? "Token of user" : "Signed in as user"}</span>
          <Copyable value={source.user_id} label="user ID" />
        </>
      ) : null}
    </>
  );
}

function EventBody({ event }: { event: AuditEventView }) {
  const details = JSON.stringify(event.details ?? {}, null, 2);
  return (
    <>
      <Section title="Event">
        <Row label="Time (UTC)">
          <time dateTime={event.timestamp} data-testid="event-exact-time">
            {formatExact(event.timestamp)}
          </time>
          <span className="block font-mono text-xs text-slate-600">{event.timestamp}</span>
        </Row>
        <Row label="Event ID">
          <Copyable value={event.id} label="event ID" />
        </Row>
        <Row label="Source">
          <Source source={event.source} />
        </Row>
        <Row label="Actor">
          {event.actor.name && event.actor.name !== event.actor.email ? <span className="block">{event.actor.name}</span> : null}
          <span className="block">{event.actor.email || <span className="text-slate-600">No email</span>}</span>
          {event.actor.id ? (
            <Copyable value={event.actor.id} label="actor ID" />
          ) : (
            <span className="text-slate-600">The platform itself</span>
          )}
        </Row>
        <Row label="Target">
          {event.target ? (
            <>
              <span className="block">
                {event.target.type}
                {event.target.name ? <span className="break-words"> · {event.target.name}</span> : null}
              </span>
              <Copyable value={event.target.id} label="target ID" />
            </>
          ) : (
            <span className="text-slate-600">None</span>
          )}
        </Row>
      </Section>

      <Section title="Request">
        <Row label="IP address">{plainIp(event.metadata.ip_address) || <span className="text-slate-600">Unknown</span>}</Row>
        <Row label="User agent">
          <span className="break-words">{event.metadata.user_agent || <span className="text-slate-600">Unknown</span>}</span>
        </Row>
      </Section>

      <section className="mt-6">
        <div className="flex items-center justify-between gap-2">
          <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">Details</h3>
          <CopyButton value={details} label="Copy details as JSON" />
        </div>
        <pre
          tabIndex={0}
          aria-label="Details as JSON"
          data-testid="event-details"
          className="mt-2 max-h-80 overflow-auto rounded-md bg-code p-3 font-mono text-xs leading-relaxed text-code-fg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          {details}
        </pre>
      </section>

      <Section title="Hash chain">
        <Row label="Sequence">
          <span className="font-mono">#{event.sequence}</span>
        </Row>
        <Row label="Chain version">
          <span className="font-mono">{event.chain_version}</span>
        </Row>
        <Row label="Hash">
          <Copyable value={event.hash} label="hash" />
        </Row>
        <Row label="Previous hash">
          <Copyable value={event.prev_hash} label="previous hash" />
          {/^0+$/.test(event.prev_hash) ? <span className="block text-xs text-slate-600">The first event of the chain</span> : null}
        </Row>
      </Section>
    </>
  );
}
