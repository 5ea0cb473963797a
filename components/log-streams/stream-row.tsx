"use client";

import Link from "next/link";
import { consoleUrl } from "../console/urls";
import { Button } from "../ui/button";
import { cx } from "../ui/cx";
import { RelativeTime } from "../ui/relative-time";
import { Td, Tr } from "../ui/table";
import { PencilIcon, SendIcon, TrashIcon } from "../icons";
import { Lag, lagLabel, StateBadge } from "./status";
import { destinationOf, TYPE_INFO } from "./stream-types";
import type { LogStream } from "./types";
import type { StreamActions } from "./use-stream-actions";

interface StreamRowProps {
  tenantId: string;
  stream: LogStream;
  canWrite: boolean;
  actions: StreamActions;
  highlight?: boolean;
}

function LastBatch({ stream }: { stream: LogStream }) {
  return stream.last_batch_at ? <RelativeTime iso={stream.last_batch_at} /> : <span className="text-slate-500">None yet</span>;
}

/** One stream in the list; its name leads to its page. */
export function StreamRow({ tenantId, stream, canWrite, actions, highlight }: StreamRowProps) {
  const testing = actions.testing(stream);
  return (
    <Tr data-testid="stream-row" data-stream-id={stream.id} className={cx(highlight && "bg-indigo-50/60")}>
      <Td className="w-full max-w-0">
        <Link
          href={consoleUrl.logStream(tenantId, stream.id)}
          className="block font-medium whitespace-normal wrap-anywhere text-slate-900 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          {stream.name}
        </Link>
        <p className="truncate text-xs text-slate-600" title={destinationOf(stream)}>
          {TYPE_INFO[stream.type].label} · {destinationOf(stream)}
        </p>
        <p className="text-xs whitespace-normal text-slate-600 md:hidden">
          {lagLabel(stream.lag_events)} · Last batch: <LastBatch stream={stream} />
        </p>
        {stream.last_error ? (
          <p className="line-clamp-2 text-xs whitespace-normal wrap-anywhere text-red-700" data-testid="stream-last-error">
            Last error: {stream.last_error}
          </p>
        ) : null}
      </Td>
      <Td>
        <StateBadge state={stream.state} />
      </Td>
      <Td className="hidden md:table-cell">
        <Lag stream={stream} />
      </Td>
      <Td className="hidden md:table-cell">
        <LastBatch stream={stream} />
      </Td>
      {canWrite ? (
        <Td className="hidden sm:table-cell">
          <div className="flex justify-end gap-0.5">
            <Button
              variant="ghost"
              size="sm"
              onClick={() => actions.sendTest(stream)}
              loading={testing}
              title="Send test batch"
              aria-label={`Send a test batch to ${stream.name}`}
            >
              {testing ? null : <SendIcon className="size-4" />}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => actions.edit(stream)} title="Edit" aria-label={`Edit ${stream.name}`}>
              <PencilIcon className="size-4" />
            </Button>
            <Button variant="ghost" size="sm" onClick={() => actions.askDelete(stream)} title="Delete" aria-label={`Delete ${stream.name}`}>
              <TrashIcon className="size-4" />
            </Button>
          </div>
        </Td>
      ) : null}
    </Tr>
  );
}
