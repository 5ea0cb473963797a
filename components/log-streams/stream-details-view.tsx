"use client";

import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { consoleUrl } from "../console/urls";
import { useTenantRole } from "../console/use-tenant-role";
import { DetailsCard, DetailsFrame } from "../resource/details-page";
import { Fact, Facts, IdFact } from "../resource/facts";
import { useTRPC } from "../trpc";
import { RelativeTime } from "../ui/relative-time";
import { PencilIcon, SendIcon, TrashIcon } from "../icons";
import { BatchesTable } from "./batches-table";
import { streamInput } from "./queries";
import { formatCount, Lag, LastBatch, StateBadge, stateAbout, streamPoll } from "./status";
import { destinationOf, TYPE_INFO } from "./stream-types";
import { TestResult } from "./test-result";
import type { LogStream } from "./types";
import { useStreamActions } from "./use-stream-actions";

/** Where the stream has got to: its state, lag, cursor and last error. */
function StreamFacts({ stream }: { stream: LogStream }) {
  return (
    <Facts>
      <Fact term="State">
        <StateBadge state={stream.state} />
        <p className="mt-1 text-xs text-slate-600">{stateAbout(stream.state)}</p>
      </Fact>
      <Fact term="Lag">
        <Lag stream={stream} />
      </Fact>
      <Fact term="Cursor">
        <span data-testid="stream-cursor">
          {stream.cursor_sequence === 0 ? "Nothing sent yet" : `Sequence ${formatCount(stream.cursor_sequence)}`}
        </span>
      </Fact>
      <Fact term="Last batch">
        <LastBatch stream={stream} />
      </Fact>
      <Fact term="Events">{!stream.event_types || stream.event_types.includes("*") ? "All events" : stream.event_types.join(", ")}</Fact>
      <Fact term="Created">
        <RelativeTime iso={stream.created_at} />
      </Fact>
      {stream.last_error ? (
        <Fact term="Last error" className="sm:col-span-2 lg:col-span-3">
          <span className="text-red-700" data-testid="stream-last-error">
            {stream.last_error}
          </span>
        </Fact>
      ) : null}
      <IdFact term="Stream ID" id={stream.id} copyLabel="Copy the stream ID" wide />
    </Facts>
  );
}

/** One stream: where it sends, how far it has got (refreshing while behind), the admin's actions, and its last batches. */
export function StreamDetailsView({ tenantId, streamId }: { tenantId: string; streamId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const { canWrite, loading } = useTenantRole(tenantId);
  const query = useQuery({
    ...trpc.logStreams.get.queryOptions(streamInput(tenantId, streamId)),
    refetchInterval: (q) => (q.state.data ? streamPoll([q.state.data]) : false),
  });
  const actions = useStreamActions(tenantId, {
    onDeleted: () => router.replace(consoleUrl.logStreams(tenantId)),
    showsTestResult: true,
  });

  return (
    <DetailsFrame
      query={query}
      list={{ href: consoleUrl.logStreams(tenantId), back: "All log streams" }}
      noun="log stream"
      missingBack="log streams"
      dialogs={actions.dialogs}
    >
      {(stream) => {
        const result = actions.testResult(stream);
        return (
          <>
            <DetailsCard
              id="stream"
              title={stream.name}
              description={`${TYPE_INFO[stream.type].label} · ${destinationOf(stream)}`}
              canWrite={canWrite}
              loadingRole={loading}
              actions={[
                {
                  label: "Send test batch",
                  icon: SendIcon,
                  primary: true,
                  onClick: () => actions.sendTest(stream),
                  loading: actions.testing(stream),
                },
                {
                  label: stream.enabled ? "Pause" : "Resume",
                  onClick: () => actions.setEnabled(stream, !stream.enabled),
                  loading: actions.switching(stream),
                },
                { label: "Edit", icon: PencilIcon, onClick: () => actions.edit(stream) },
                { label: "Delete", icon: TrashIcon, onClick: () => actions.askDelete(stream) },
              ]}
            >
              {result ? <TestResult result={result} /> : null}
              <StreamFacts stream={stream} />
            </DetailsCard>

            <BatchesTable tenantId={tenantId} streamId={stream.id} pollMs={streamPoll([stream])} />
          </>
        );
      }}
    </DetailsFrame>
  );
}
