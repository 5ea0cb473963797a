"use client";

import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { MAX_RECOVER } from "@/server/webhooks/schemas";
import { fieldErrorsOf, messageOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Dialog, FormActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A `datetime-local` value (the browser's time zone) for a moment. */
function localInput(at: Date): string {
  const shifted = new Date(at.getTime() - at.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
}

function Progress({ tenantId, webhookId, jobId }: { tenantId: string; webhookId: string; jobId: string }) {
  const trpc = useTRPC();
  const job = useQuery({
    ...trpc.webhooks.recoverJob.queryOptions({ tenant_id: tenantId, webhook_id: webhookId, job_id: jobId }),
    refetchInterval: (query) => (query.state.data && ["done", "failed"].includes(query.state.data.status) ? false : 1000),
  });
  if (job.isError) return <Alert tone="danger">{messageOf(job.error)}</Alert>;
  if (!job.data) return <p className="text-sm text-slate-600">Starting…</p>;
  const { status, queued, sent, truncated, next_since, error } = job.data;
  const percent = queued ? Math.round((sent / queued) * 100) : 100;
  return (
    <div className="space-y-3" aria-live="polite">
      <p className="text-sm text-slate-800">
        {status === "queued" ? "Waiting for a worker…" : null}
        {status === "running" ? `Re-sending: ${sent} of ${queued} delivered.` : null}
        {status === "done" ? `Done: ${queued} re-sent, ${sent} delivered.` : null}
        {status === "failed" ? `Failed: ${error ?? "unknown error"}` : null}
      </p>
      <div
        className="h-2 overflow-hidden rounded bg-slate-100"
        role="progressbar"
        aria-label="Delivered"
        aria-valuemin={0}
        aria-valuemax={queued}
        aria-valuenow={sent}
      >
        <div className="h-full bg-indigo-600 transition-all" style={{ width: `${percent}%` }} />
      </div>
      {truncated ? (
        <Alert tone="warning">
          More than {MAX_RECOVER.toLocaleString("en")} matched: the oldest were queued. Recover again from{" "}
          {next_since ? new Date(next_since).toLocaleString() : "the last one"} for the rest.
        </Alert>
      ) : null}
    </div>
  );
}

/** "Recover failed deliveries since…": re-sends what ended failed, exhausted or cancelled in a window, with progress. */
export function RecoverDialog({ tenantId, webhookId, onClose }: { tenantId: string; webhookId: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [since, setSince] = useState(() => localInput(new Date(Date.now() - DAY_MS)));
  const [jobId, setJobId] = useState<string | null>(null);
  const recover = useMutation(
    trpc.webhooks.recover.mutationOptions({ onSuccess: () => queryClient.invalidateQueries(trpc.webhooks.deliveries.pathFilter()) }),
  );
  const sinceError = recover.error ? fieldErrorsOf(recover.error).find((e) => e.path === "since")?.message : undefined;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const at = new Date(since);
    if (Number.isNaN(at.getTime())) return;
    recover.mutate({ tenant_id: tenantId, webhook_id: webhookId, since: at.toISOString() }, { onSuccess: (job) => setJobId(job.id) });
  }

  return (
    <Dialog
      title="Recover failed deliveries"
      description="Re-sends, oldest first, every delivery since then that ended failed, exhausted or cancelled: the same payload and event id, so your endpoint can drop any it already has."
      size="md"
      onClose={onClose}
      onSubmit={jobId ? undefined : submit}
      busy={recover.isPending}
      footer={
        jobId ? (
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
        ) : (
          <FormActions onCancel={onClose} pending={recover.isPending} submitLabel="Recover" />
        )
      }
    >
      {jobId ? (
        <Progress tenantId={tenantId} webhookId={webhookId} jobId={jobId} />
      ) : (
        <div className="space-y-4">
          <Field
            id="recover-since"
            label="Since"
            hint={`Your time zone. At most ${MAX_RECOVER.toLocaleString("en")} deliveries per request.`}
            error={sinceError}
          >
            {(control) => (
              <Input {...control} type="datetime-local" required value={since} onChange={(event) => setSince(event.target.value)} />
            )}
          </Field>
          {recover.error && !sinceError ? <Alert tone="danger">{messageOf(recover.error)}</Alert> : null}
        </div>
      )}
    </Dialog>
  );
}
