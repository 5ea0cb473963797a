"use client";

import type { ReactNode } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { consoleUrl } from "../console/urls";
import { useTenantRole } from "../console/use-tenant-role";
import { messageOf, statusOf, useTRPC } from "../trpc";
import { Badge } from "../ui/badge";
import { buttonClasses, Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { CopyButton } from "../ui/copy-button";
import { cx } from "../ui/cx";
import { EmptyState } from "../ui/empty-state";
import { LoadError } from "../ui/list-states";
import { RelativeTime } from "../ui/relative-time";
import { Skeleton } from "../ui/skeleton";
import { AlertIcon, ChevronLeftIcon, PencilIcon, SendIcon, TrashIcon } from "../icons";
import { BatchesTable } from "./batches-table";
import { streamInput } from "./queries";
import { formatCount, Lag, StateBadge, stateAbout, streamPoll } from "./status";
import { destinationOf, TYPE_INFO } from "./stream-types";
import { TestResult } from "./test-result";
import { useStreamActions } from "./use-stream-actions";

function Item({ term, children, className }: { term: string; children: ReactNode; className?: string }) {
  return (
    <div className={cx("min-w-0", className)}>
      <dt className="text-xs font-medium text-slate-600">{term}</dt>
      <dd className="mt-1 text-sm break-words text-slate-900">{children}</dd>
    </div>
  );
}

function BackToStreams({ tenantId }: { tenantId: string }) {
  return (
    <Link
      href={consoleUrl.logStreams(tenantId)}
      className="mb-4 inline-flex items-center gap-1 rounded text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <ChevronLeftIcon className="size-4" />
      All log streams
    </Link>
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

  if (query.isPending) {
    return (
      <>
        <BackToStreams tenantId={tenantId} />
        <Card aria-busy="true">
          <div className="space-y-4 p-6">
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-4 w-1/2" />
            <Skeleton className="h-4 w-1/3" />
          </div>
        </Card>
      </>
    );
  }

  if (query.isError) {
    return (
      <>
        <BackToStreams tenantId={tenantId} />
        <Card>
          {statusOf(query.error) === 404 ? (
            <EmptyState
              icon={<AlertIcon className="size-6" />}
              title="This log stream does not exist"
              description="It may have been deleted. Pick one from the list."
              action={
                <Link href={consoleUrl.logStreams(tenantId)} className={buttonClasses("secondary")}>
                  Back to log streams
                </Link>
              }
            />
          ) : (
            <LoadError
              title="The log stream could not be loaded"
              message={messageOf(query.error)}
              onRetry={() => query.refetch()}
              retrying={query.isFetching}
            />
          )}
        </Card>
      </>
    );
  }

  const stream = query.data;
  const testing = actions.testing(stream);
  const result = actions.testResult(stream);
  return (
    <>
      <BackToStreams tenantId={tenantId} />
      <div className="space-y-6">
        <Card aria-labelledby="stream-title">
          <CardHeader
            title={
              <span id="stream-title" className="wrap-anywhere">
                {stream.name}
              </span>
            }
            description={`${TYPE_INFO[stream.type].label} · ${destinationOf(stream)}`}
            actions={canWrite ? null : loading ? null : <Badge>Read-only</Badge>}
          />
          <div className="space-y-5 px-4 py-4 sm:px-6">
            {canWrite ? (
              <div className="flex flex-wrap gap-2">
                <Button onClick={() => actions.sendTest(stream)} loading={testing}>
                  {testing ? null : <SendIcon className="size-4" />}
                  Send test batch
                </Button>
                <Button variant="secondary" onClick={() => actions.setEnabled(stream, !stream.enabled)} loading={actions.switching(stream)}>
                  {stream.enabled ? "Pause" : "Resume"}
                </Button>
                <Button variant="secondary" onClick={() => actions.edit(stream)}>
                  <PencilIcon className="size-4" />
                  Edit
                </Button>
                <Button variant="secondary" onClick={() => actions.askDelete(stream)}>
                  <TrashIcon className="size-4" />
                  Delete
                </Button>
              </div>
            ) : null}
            {result ? <TestResult result={result} /> : null}
            <dl className="grid grid-flow-row-dense gap-x-6 gap-y-4 sm:grid-cols-2 lg:grid-cols-3">
              <Item term="State">
                <StateBadge state={stream.state} />
                <p className="mt-1 text-xs text-slate-600">{stateAbout(stream.state)}</p>
              </Item>
              <Item term="Lag">
                <Lag stream={stream} />
              </Item>
              <Item term="Cursor">
                <span data-testid="stream-cursor">
                  {stream.cursor_sequence === 0 ? "Nothing sent yet" : `Sequence ${formatCount(stream.cursor_sequence)}`}
                </span>
              </Item>
              <Item term="Last batch">
                {stream.last_batch_at ? <RelativeTime iso={stream.last_batch_at} /> : <span className="text-slate-500">None yet</span>}
              </Item>
              <Item term="Events">
                {!stream.event_types || stream.event_types.includes("*") ? "All events" : stream.event_types.join(", ")}
              </Item>
              <Item term="Created">
                <RelativeTime iso={stream.created_at} />
              </Item>
              {stream.last_error ? (
                <Item term="Last error" className="sm:col-span-2 lg:col-span-3">
                  <span className="text-red-700" data-testid="stream-last-error">
                    {stream.last_error}
                  </span>
                </Item>
              ) : null}
              <Item term="Stream ID" className="sm:col-span-2">
                <span className="inline-flex max-w-full items-start gap-1">
                  <code className="font-mono text-xs break-all text-slate-800 sm:break-normal">{stream.id}</code>
                  <CopyButton value={stream.id} label="Copy the stream ID" className="-my-1.5 shrink-0" />
                </span>
              </Item>
            </dl>
          </div>
        </Card>

        <BatchesTable tenantId={tenantId} streamId={stream.id} pollMs={streamPoll([stream])} />
      </div>
      {actions.dialogs}
    </>
  );
}
