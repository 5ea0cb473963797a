"use client";

import { useState, type ReactNode } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useStepUp } from "../auth/step-up-dialog";
import { stepUpIfAsked } from "../auth/with-step-up";
import { messageOf, useTRPC } from "../trpc";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { useToast } from "../ui/toast";
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
  const notify = useToast();
  const { ensureSteppedUp, dialog: stepUpDialog } = useStepUp();
  const [editing, setEditing] = useState<{ stream?: LogStream } | null>(null);
  const [deleting, setDeleting] = useState<LogStream | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [results, setResults] = useState<Record<string, LogStreamTestResult>>({});

  const invalidate = () => queryClient.invalidateQueries(trpc.logStreams.pathFilter());
  const update = useMutation(trpc.logStreams.update.mutationOptions({ onSettled: invalidate }));
  // Only the list: the deleted stream's own queries, asked again before its page is left, would answer 404.
  const remove = useMutation(
    trpc.logStreams.delete.mutationOptions({ onSettled: () => queryClient.invalidateQueries(trpc.logStreams.list.pathFilter()) }),
  );
  const test = useMutation(trpc.logStreams.test.mutationOptions({ onSettled: invalidate }));
  const ids = (stream: LogStream) => ({ tenant_id: tenantId, stream_id: stream.id });
  const named = (stream: LogStream) => <span className="font-medium wrap-anywhere">{stream.name}</span>;
  const steppingUpIfAsked = (action: string, call: () => Promise<unknown>) => stepUpIfAsked(ensureSteppedUp, action, call);

  async function setEnabled(stream: LogStream, enabled: boolean) {
    try {
      const action = `${enabled ? "resume" : "pause"} log stream ${stream.name}`;
      if (await steppingUpIfAsked(action, () => update.mutateAsync({ ...ids(stream), enabled }))) {
        notify(
          <>
            {named(stream)} is {enabled ? "resumed: it picks up from its cursor" : "paused"}.
          </>,
        );
      }
    } catch (error) {
      notify(
        <>
          {named(stream)} could not be {enabled ? "resumed" : "paused"}: {messageOf(error)}
        </>,
        "danger",
      );
    }
  }

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

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteError(null);
    try {
      if (!(await steppingUpIfAsked(`delete log stream ${deleting.name}`, () => remove.mutateAsync(ids(deleting))))) return;
      notify(<>{named(deleting)} was deleted.</>);
      setDeleting(null);
      onDeleted?.();
    } catch (error) {
      setDeleteError(messageOf(error));
    }
  }

  const dialogs = (
    <>
      {editing ? (
        <StreamDialog
          tenantId={tenantId}
          stream={editing.stream}
          steppingUpIfAsked={steppingUpIfAsked}
          onClose={() => setEditing(null)}
          onSaved={(saved, created) => {
            setEditing(null);
            onSaved?.(saved, created);
            notify(created ? <>{named(saved)} was added.</> : <>{named(saved)} was saved.</>);
          }}
        />
      ) : null}

      {deleting ? (
        <ConfirmDialog
          title="Delete this log stream?"
          confirmLabel="Delete stream"
          pending={remove.isPending}
          error={deleteError}
          onConfirm={confirmDelete}
          onCancel={() => setDeleting(null)}
        >
          <p>
            {named(deleting)} stops sending, and its cursor and batch history are deleted with it. What the receiver already has stays
            there. This cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
      {stepUpDialog}
    </>
  );

  return {
    add: () => setEditing({}),
    edit: (stream) => setEditing({ stream }),
    askDelete: (stream) => {
      setDeleteError(null);
      setDeleting(stream);
    },
    sendTest,
    setEnabled: (stream, enabled) => void setEnabled(stream, enabled),
    testing: (stream) => test.isPending && test.variables?.stream_id === stream.id,
    switching: (stream) => update.isPending && update.variables?.stream_id === stream.id,
    testResult: (stream) => results[stream.id],
    dialogs,
  };
}
