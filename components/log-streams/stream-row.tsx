"use client";

import { consoleUrl } from "../console/urls";
import { ResourceRow } from "../resource/resource-row";
import { Td } from "../ui/table";
import { PencilIcon, SendIcon, TrashIcon } from "../icons";
import { Lag, lagLabel, LastBatch, StateBadge } from "./status";
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

/** One stream in the list; its name leads to its page. */
export function StreamRow({ tenantId, stream, canWrite, actions, highlight }: StreamRowProps) {
  const { name } = stream;
  return (
    <ResourceRow
      attrs={{ "data-testid": "stream-row", "data-stream-id": stream.id }}
      name={name}
      href={consoleUrl.logStream(tenantId, stream.id)}
      highlight={highlight}
      cells={
        <>
          <Td>
            <StateBadge state={stream.state} />
          </Td>
          <Td className="hidden md:table-cell">
            <Lag stream={stream} />
          </Td>
          <Td className="hidden md:table-cell">
            <LastBatch stream={stream} />
          </Td>
        </>
      }
      actions={
        canWrite
          ? [
              {
                icon: SendIcon,
                title: "Send test batch",
                label: `Send a test batch to ${name}`,
                onClick: () => actions.sendTest(stream),
                loading: actions.testing(stream),
              },
              { icon: PencilIcon, title: "Edit", label: `Edit ${name}`, onClick: () => actions.edit(stream) },
              { icon: TrashIcon, title: "Delete", label: `Delete ${name}`, onClick: () => actions.askDelete(stream) },
            ]
          : null
      }
    >
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
    </ResourceRow>
  );
}
