"use client";

import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MfaFactor } from "@/server/account/schemas";
import { useStepUp } from "../auth/step-up-dialog";
import { withStepUp } from "../auth/with-step-up";
import { fieldErrorsOf, messageOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { CopyButton } from "../ui/copy-button";
import { Dialog, FormActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { LoadError } from "../ui/list-states";
import { RelativeTime } from "../ui/relative-time";
import { ShownOncePanel } from "../ui/shown-once-panel";
import { Skeleton } from "../ui/skeleton";
import { useToast } from "../ui/toast";
import { AddAuthenticatorDialog } from "./add-authenticator-dialog";

/** Recovery codes, just made: shown this once, with copy and download. */
function RecoveryCodesPanel({ codes, onDismiss }: { codes: string[]; onDismiss: () => void }) {
  const text = `Control Plane recovery codes (each works once)\n\n${codes.join("\n")}\n`;
  return (
    <ShownOncePanel
      id="recovery-codes"
      title="Save your recovery codes"
      hint="If you lose your authenticator app, each of these codes signs you in once. They are shown only now: store them somewhere safe, such as a password manager."
      focusKey={codes[0] ?? ""}
      onDismiss={onDismiss}
    >
      <ul
        className="mt-3 grid grid-cols-2 gap-2 font-mono text-sm text-slate-900 sm:grid-cols-5"
        aria-label="Recovery codes"
        data-testid="recovery-codes"
      >
        {codes.map((code) => (
          <li key={code} className="rounded-md bg-white px-2 py-1.5 text-center ring-1 ring-amber-300 select-all">
            {code}
          </li>
        ))}
      </ul>
      <div className="mt-3 flex flex-wrap gap-2">
        <CopyButton value={text} text="Copy codes" />
        <a
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="control-plane-recovery-codes.txt"
          className="inline-flex h-8 items-center rounded-md bg-white px-3 text-sm font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50"
        >
          Download
        </a>
      </div>
    </ShownOncePanel>
  );
}

function RenameDialog({ factor, onClose }: { factor: MfaFactor; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const rename = useMutation(trpc.account.mfa.rename.mutationOptions());
  const [name, setName] = useState(factor.name);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    rename.mutate(
      { factor_id: factor.id, name },
      {
        onSuccess: async () => {
          await queryClient.invalidateQueries({ queryKey: trpc.account.mfa.status.queryKey() });
          onClose();
        },
      },
    );
  }
  const error = rename.error ? (fieldErrorsOf(rename.error).find((e) => e.path === "name")?.message ?? messageOf(rename.error)) : null;
  return (
    <Dialog
      title="Rename authenticator app"
      onClose={onClose}
      onSubmit={submit}
      busy={rename.isPending}
      footer={<FormActions onCancel={onClose} pending={rename.isPending} submitLabel="Save" />}
    >
      <Field id="factor-name" label="Name" error={error}>
        {(control) => <Input {...control} name="name" maxLength={60} value={name} onChange={(event) => setName(event.target.value)} />}
      </Field>
    </Dialog>
  );
}

function FactorRow({ factor, onRename, onRemove }: { factor: MfaFactor; onRename: () => void; onRemove: () => void }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 px-4 py-3.5 sm:px-6" data-testid="mfa-factor-row">
      <div className="min-w-0 space-y-1">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
          <span className="truncate">{factor.name}</span>
          <Badge tone="neutral">Authenticator app</Badge>
        </p>
        <p className="text-sm text-slate-600">
          Added <RelativeTime iso={factor.created_at} /> ·{" "}
          {factor.last_used_at ? (
            <>
              last used <RelativeTime iso={factor.last_used_at} />
            </>
          ) : (
            "never used"
          )}
        </p>
      </div>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" onClick={onRename}>
          Rename
        </Button>
        <Button variant="secondary" size="sm" onClick={onRemove}>
          Remove
        </Button>
      </div>
    </li>
  );
}

/**
 * Profile → Two-factor authentication: the account's authenticator apps (add, rename, remove) and
 * its recovery codes (shown once when made; new ones replace them).
 */
export function TwoFactorCard({ required = false }: { required?: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const notify = useToast();
  const { ensureSteppedUp, dialog: stepUpDialog } = useStepUp();
  const status = useQuery(trpc.account.mfa.status.queryOptions({}));
  const remove = useMutation(trpc.account.mfa.remove.mutationOptions());
  const regenerate = useMutation(trpc.account.mfa.regenerateRecoveryCodes.mutationOptions());
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<MfaFactor | null>(null);
  const [removing, setRemoving] = useState<MfaFactor | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.account.mfa.status.queryKey() });
  const factors = status.data?.factors ?? [];
  const last = factors.length === 1;

  async function add() {
    setError(null);
    if (await ensureSteppedUp("add an authenticator app")) setAdding(true);
  }

  async function confirmRemove(factor: MfaFactor) {
    try {
      const done = await withStepUp(
        (action) => ensureSteppedUp(action, { fresh: last }),
        `remove ${factor.name}`,
        () => remove.mutateAsync({ factor_id: factor.id }),
      );
      setRemoving(null);
      if (!done) return;
      if (last) setCodes(null);
      notify(`Removed ${factor.name}`);
      await refresh();
    } catch (failure) {
      setError(messageOf(failure));
      setRemoving(null);
    }
  }

  async function newCodes() {
    setError(null);
    try {
      await withStepUp(ensureSteppedUp, "make new recovery codes", async () => {
        setCodes((await regenerate.mutateAsync({})).recovery_codes);
        await refresh();
      });
    } catch (failure) {
      setError(messageOf(failure));
    }
  }

  const showRequired = required || status.data?.enrollment_required;
  return (
    <Card aria-labelledby="mfa-title" id="two-factor">
      <CardHeader
        title={<span id="mfa-title">Two-factor authentication</span>}
        description="A code from an app on your phone, asked at password sign-in and when you confirm sensitive actions. Sign-ins through SSO are not asked: your identity provider checks you."
        actions={
          status.data?.available ? (
            <Button variant="secondary" size="sm" onClick={add}>
              Add authenticator app
            </Button>
          ) : null
        }
      />
      <div className="space-y-4 px-4 pb-4 sm:px-6">
        {showRequired && factors.length === 0 ? (
          <Alert tone="warning" title="Add a second factor to continue">
            This platform requires operators and support staff to use two-factor authentication. Add an authenticator app to use the
            console.
          </Alert>
        ) : null}
        {error ? <Alert tone="danger">{error}</Alert> : null}
        {codes ? <RecoveryCodesPanel codes={codes} onDismiss={() => setCodes(null)} /> : null}
      </div>
      {status.isPending ? (
        <div className="space-y-3 p-6" aria-busy="true">
          <Skeleton className="h-4 w-1/2" />
        </div>
      ) : status.isError ? (
        <LoadError
          title="Your second factors could not be loaded"
          message={messageOf(status.error)}
          onRetry={() => status.refetch()}
          retrying={status.isFetching}
        />
      ) : !status.data.available ? (
        <p className="px-4 pb-5 text-sm text-slate-600 sm:px-6">
          Your account signs in through SSO: your identity provider is its second factor.
        </p>
      ) : factors.length === 0 ? (
        <p className="px-4 pb-5 text-sm text-slate-600 sm:px-6">Not set up: signing in needs only your password.</p>
      ) : (
        <>
          <ul className="divide-y divide-slate-200 border-t border-slate-200" aria-label="Authenticator apps">
            {factors.map((factor) => (
              <FactorRow
                key={factor.id}
                factor={factor}
                onRename={() => setRenaming(factor)}
                onRemove={() => (setError(null), setRemoving(factor))}
              />
            ))}
          </ul>
          <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 px-4 py-3.5 sm:px-6">
            <p className="text-sm text-slate-600" data-testid="recovery-codes-remaining">
              {status.data.recovery_codes_remaining} of 10 recovery codes left
            </p>
            <Button variant="secondary" size="sm" onClick={newCodes} loading={regenerate.isPending}>
              New recovery codes
            </Button>
          </div>
        </>
      )}

      {adding ? (
        <AddAuthenticatorDialog
          onClose={() => setAdding(false)}
          onAdded={async (factor, recoveryCodes) => {
            setAdding(false);
            if (recoveryCodes) setCodes(recoveryCodes);
            notify(`Added ${factor.name}`);
            await refresh();
            // The console was closed to platform staff until now (PLATFORM_REQUIRE_MFA).
            if (showRequired) await queryClient.invalidateQueries();
          }}
        />
      ) : null}
      {renaming ? <RenameDialog factor={renaming} onClose={() => setRenaming(null)} /> : null}
      {removing ? (
        <ConfirmDialog
          title={`Remove ${removing.name}?`}
          confirmLabel="Remove app"
          pending={remove.isPending}
          onCancel={() => setRemoving(null)}
          onConfirm={() => confirmRemove(removing)}
        >
          {last
            ? "It is your only second factor: signing in will need only your password, and your recovery codes stop working. You will confirm it's you first."
            : "Its codes stop working at once."}
        </ConfirmDialog>
      ) : null}
      {stepUpDialog}
    </Card>
  );
}
