"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTenantRole } from "../console/use-tenant-role";
import { useTRPC } from "../trpc";
import { ListCard } from "../resource/list-card";
import { AddButton } from "../resource/parts";
import { rowActionsColumn } from "../resource/resource-row";
import { EmptyState } from "../ui/empty-state";
import { keepPage, ListTable, type ListColumn } from "../ui/list-table";
import { FIRST_PAGE, type TablePosition } from "../ui/pagination";
import { Skeleton } from "../ui/skeleton";
import { StreamIcon } from "./icon";
import { STREAMS_PAGE_SIZE, streamsInput } from "./queries";
import { streamPoll } from "./status";
import { StreamRow } from "./stream-row";
import { useStreamActions } from "./use-stream-actions";

function columns(canWrite: boolean): ListColumn[] {
  return [
    {
      header: "Stream",
      skeleton: (
        <>
          <Skeleton className="h-4 w-48" />
          <Skeleton className="mt-1.5 h-3 w-64" />
        </>
      ),
    },
    { header: "State", skeleton: <Skeleton className="h-5 w-16" /> },
    { header: "Lag", className: "hidden md:table-cell", skeleton: <Skeleton className="h-4 w-20" /> },
    { header: "Last batch", className: "hidden md:table-cell", skeleton: <Skeleton className="h-4 w-24" /> },
    ...rowActionsColumn(canWrite),
  ];
}

/** A tenant's log streams: the list, refreshing while one is behind, and for tenant admins adding, testing, editing and deleting them. */
export function StreamsView({ tenantId }: { tenantId: string }) {
  const trpc = useTRPC();
  const { canWrite, loading } = useTenantRole(tenantId);
  const [position, setPosition] = useState<TablePosition>(FIRST_PAGE);
  const [highlightId, setHighlightId] = useState<string | null>(null);
  const actions = useStreamActions(tenantId, {
    onSaved: (stream, created) => {
      setHighlightId(stream.id);
      if (created) setPosition(FIRST_PAGE);
    },
  });
  const query = useQuery({
    ...trpc.logStreams.list.queryOptions(streamsInput(tenantId, position.cursor)),
    ...keepPage,
    refetchInterval: (q) => streamPoll(q.state.data?.results),
  });

  return (
    <>
      <ListCard
        id="streams"
        title="Log streams"
        description="This tenant's audit log, streamed in order into your SIEM or data lake, with the hash chain that proves nothing is missing."
        readOnlyDescription="This tenant's audit log, streamed into a SIEM or data lake. You have view-only access, so you cannot change them."
        canWrite={canWrite}
        loadingRole={loading}
        add={{ label: "Add stream", onClick: actions.add }}
      >
        <ListTable
          label="Log streams"
          columns={columns(canWrite)}
          query={query}
          position={position}
          onMove={setPosition}
          pageSize={STREAMS_PAGE_SIZE}
          empty={
            <EmptyState
              icon={<StreamIcon className="size-6" />}
              title="No log streams yet"
              description="A stream sends every audit event of this tenant to Amazon S3, Datadog, Splunk, an HTTPS endpoint or syslog, in batches, in order, from where you choose (now, the whole log, or a date). Each event carries its sequence and hash, so the receiver can verify its copy is complete and unaltered."
              action={canWrite ? <AddButton label="Add your first stream" onClick={actions.add} /> : null}
            />
          }
          pastEnd={{ noun: "log streams", reason: "deleted" }}
          renderRow={(stream) => (
            <StreamRow
              key={stream.id}
              tenantId={tenantId}
              stream={stream}
              canWrite={canWrite}
              actions={actions}
              highlight={stream.id === highlightId}
            />
          )}
        />
      </ListCard>
      {actions.dialogs}
    </>
  );
}
