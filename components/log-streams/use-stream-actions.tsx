"use client";

import { useState, type ReactNode } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useConfirmedStep, useResourceActions } from "../resource/use-resource-actions";
import { messageOf, useTRPC } from "../trpc";
import { StreamDialog } from "./stream-dialog";
import { describeTest } from "./test-result";
import type { LogStream, LogStreamTestResult } from "./types";

export interface StreamActions {
  add: () => void;
  edit: (stream: LogStream) => void;
  askDelete: (stream: LogStream) => void;
  sendTest: (stream: LogStream) => void;
  setEnabled: (stream: LogStream, enabled: boolean) => void;
  /** Whether a test batch, or a pause or resume, of this stream is on its way. */
  testing: (stream: LogStream) => boolean;
  switching: (stream: LogStream) => boolean;
  /** What the receiver answered to this stream's last test batch, sent from this page. */
  testResult: (stream: LogStream) => LogStreamTestResult | undefined;
  /** The dialogs these actions open: render them somewhere in the caller's tree. */
  dialogs: ReactNode;
}

/**
 * What a tenant admin can do to log streams, shared by the list and a stream's page: the add/edit
 * dialog, deleting with a confirmation, test batches, pause and resume, with their toasts.
 */
export function useStreamActions(
  tenantId: string,
  {
    onSaved,
    onDeleted,
    showsTestResult = false,
  }: {
    onSaved?: (stream: LogStream, created: boolean) => void;
    onDeleted?: () => void;
    /** The caller shows `testResult` itself (a stream's page): no toast repeats it. */
    showsTestResult?: boolean;
  } = {},
): StreamActions {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<{ stream?: LogStream } | null>(null);
  const [results, setResults] = useState<Record<string, LogStreamTestResult>>({});

  const invalidate = () => queryClient.invalidateQueries(trpc.logStreams.pathFilter());
  const update = useMutation(trpc.logStreams.update.mutationOptions({ onSettled: invalidate }));
  // Only the list: the deleted stream's own queries, asked again before its page is left, would answer 404.
  const remove = useMutation(
    trpc.logStreams.delete.mutationOptions({ onSettled: () => queryClient.invalidateQueries(trpc.logStreams.list.pathFilter()) }),
  );
  const test = useMutation(trpc.logStreams.test.mutationOptions({ onSettled: invalidate }));
  const ids = (stream: LogStream) => ({ tenant_id: tenantId, stream_id: stream.id });

  const core = useResourceActions<LogStream>({
    noun: "log stream",
    nameOf: (stream) => stream.name,
    toggle: (stream, enabled) => update.mutateAsync({ ...ids(stream), enabled }),
    words: { on: ["resume", "resumed"], off: ["pause", "paused"] },
    onNote: ": it picks up from its cursor",
  });
  const { notify, named } = core;

  const deleting = useConfirmedStep(core, {
    title: "Delete this log stream?",
    confirmLabel: "Delete stream",
    body: (stream: LogStream) => (
      <p>
        {named(stream)} stops sending, and its cursor and batch history are deleted with it. What the receiver already has stays there. This
        cannot be undone.
      </p>
    ),
    stepUp: "if-asked",
    action: (stream) => `delete log stream ${stream.name}`,
    run: (stream) => remove.mutateAsync(ids(stream)),
    pending: remove.isPending,
    done: (stream) => {
      notify(<>{named(stream)} was deleted.</>);
      onDeleted?.();
    },
  });

  function sendTest(stream: LogStream) {
    // The last result goes while the new one is on its way, so the two are never mistaken.
    setResults(({ [stream.id]: _, ...rest }) => rest);
    test.mutate(ids(stream), {
      onSuccess: (result) => {
        setResults((all) => ({ ...all, [stream.id]: result }));
        if (showsTestResult) return;
        const { tone, text } = describeTest(result);
        notify(
          <span data-testid="test-toast" data-ok={result.ok}>
            Test batch to {named(stream)}: {text}
          </span>,
          tone,
        );
      },
      onError: (error) =>
        notify(
          <>
            The test batch could not be sent to {named(stream)}: {messageOf(error)}
          </>,
          "danger",
        ),
    });
  }

  const dialogs = (
    <>
      {editing ? (
        <StreamDialog
          tenantId={tenantId}
          stream={editing.stream}
          steppingUpIfAsked={core.steppingUpIfAsked}
          onClose={() => setEditing(null)}
          onSaved={(saved, created) => {
            setEditing(null);
            onSaved?.(saved, created);
            notify(created ? <>{named(saved)} was added.</> : <>{named(saved)} was saved.</>);
          }}
        />
      ) : null}
      {deleting.dialog}
      {core.stepUpDialog}
    </>
  );

  return {
    add: () => setEditing({}),
    edit: (stream) => setEditing({ stream }),
    askDelete: deleting.ask,
    sendTest,
    setEnabled: core.setEnabled,
    testing: (stream) => test.isPending && test.variables?.stream_id === stream.id,
    switching: (stream) => update.isPending && update.variables?.stream_id === stream.id,
    testResult: (stream) => results[stream.id],
    dialogs,
  };
}
