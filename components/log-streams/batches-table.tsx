"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { Card, CardHeader } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import { keepPage, ListTable, type ListColumn } from "../ui/list-table";
import { FIRST_PAGE, type TablePosition } from "../ui/pagination";
import { RelativeTime } from "../ui/relative-time";
import { Skeleton } from "../ui/skeleton";
import { Td, Tr } from "../ui/table";
import { SendIcon } from "../icons";
import { BATCHES_PAGE_SIZE, batchesInput } from "./queries";
import { answerLabel, BatchStatus, eventsLabel, formatCount, rangeLabel } from "./status";
import type { LogStreamBatch } from "./types";

const COLUMNS: ListColumn[] = [
  { header: "Range", skeleton: <Skeleton className="h-4 w-28" /> },
  { header: "Events", className: "hidden sm:table-cell", skeleton: <Skeleton className="h-4 w-12" /> },
  { header: "Status", skeleton: <Skeleton className="h-5 w-14" /> },
  { header: "Duration", className: "hidden md:table-cell", skeleton: <Skeleton className="h-4 w-12" /> },
  { header: "Receiver's answer", className: "hidden lg:table-cell", skeleton: <Skeleton className="h-4 w-40" /> },
  { header: "Sent", className: "hidden sm:table-cell", skeleton: <Skeleton className="h-4 w-20" /> },
];

function Answer({ batch }: { batch: LogStreamBatch }) {
  return (
    <div className="min-w-0">
      <p className="font-medium text-slate-800">{answerLabel(batch)}</p>
      {batch.response_body ? (
        <p className="truncate font-mono text-xs text-slate-600" title={batch.response_body}>
          {batch.response_body}
        </p>
      ) : null}
      {batch.response_status && batch.error ? <p className="text-xs whitespace-normal text-red-700">{batch.error}</p> : null}
    </div>
  );
}

function BatchRow({ batch }: { batch: LogStreamBatch }) {
  return (
    <Tr data-testid="batch-row" data-status={batch.status} data-from={batch.from_sequence} data-to={batch.to_sequence}>
      <Td className="font-mono text-xs">
        {rangeLabel(batch)}
        <p className="font-sans text-xs text-slate-600 sm:hidden">{eventsLabel(batch.events)}</p>
      </Td>
      <Td className="hidden sm:table-cell">{formatCount(batch.events)}</Td>
      <Td>
        <BatchStatus batch={batch} />
        {batch.attempt > 1 ? <p className="mt-1 text-xs text-slate-600">Attempt {batch.attempt}</p> : null}
        <p className="mt-1 text-xs text-slate-600 lg:hidden">{answerLabel(batch)}</p>
      </Td>
      <Td className="hidden md:table-cell">{formatCount(batch.duration_ms)} ms</Td>
      <Td className="hidden max-w-72 whitespace-normal lg:table-cell">
        <Answer batch={batch} />
      </Td>
      <Td className="hidden sm:table-cell">
        <RelativeTime iso={batch.started_at} />
      </Td>
    </Tr>
  );
}

/** A stream's last batches, newest first: what was sent, and what the receiver said. */
export function BatchesTable({ tenantId, streamId, pollMs }: { tenantId: string; streamId: string; pollMs: number }) {
  const trpc = useTRPC();
  const [position, setPosition] = useState<TablePosition>(FIRST_PAGE);
  const query = useQuery({
    ...trpc.logStreams.batches.queryOptions(batchesInput(tenantId, streamId, position.cursor)),
    ...keepPage,
    // Only the first page grows: later pages hold still while reading them.
    refetchInterval: position.cursor ? false : pollMs,
  });
  return (
    <Card aria-labelledby="batches-title" id="batches">
      <CardHeader
        title={<span id="batches-title">Last batches</span>}
        description="Each batch is a range of the log's sequence numbers; a failed one is retried with backoff until the receiver takes it."
      />
      <ListTable
        label="Batches"
        columns={COLUMNS}
        query={query}
        position={position}
        onMove={setPosition}
        pageSize={BATCHES_PAGE_SIZE}
        empty={
          <EmptyState
            icon={<SendIcon className="size-6" />}
            title="No batches yet"
            description="A batch goes out as soon as events are waiting: up to 1,000 events, or what arrived within 5 seconds."
          />
        }
        pastEnd={{ noun: "batches", reason: "pruned" }}
        renderRow={(batch) => <BatchRow key={batch.id} batch={batch} />}
      />
    </Card>
  );
}
