"use client";

import { useEffect, useRef, useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import type { MfaFactor } from "@/server/account/schemas";
import { fieldErrorsOf, messageOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { CopyButton } from "../ui/copy-button";
import { Dialog, FormActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Skeleton } from "../ui/skeleton";

/**
 * Adding an authenticator app (after the step-up the caller asked for): the QR code and the key to
 * type by hand, then the app's first code confirms it. `onAdded` gets the factor and, for the
 * account's first one, its recovery codes.
 */
export function AddAuthenticatorDialog({
  onClose,
  onAdded,
}: {
  onClose: () => void;
  onAdded: (factor: MfaFactor, recoveryCodes: string[] | null) => void;
}) {
  const trpc = useTRPC();
  const start = useMutation(trpc.account.mfa.startTotp.mutationOptions());
  const confirm = useMutation(trpc.account.mfa.confirmTotp.mutationOptions());
  const [name, setName] = useState("Authenticator app");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    // Once per dialog (React runs effects twice in development).
    if (started.current) return;
    started.current = true;
    start.mutate({});
  }, [start]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!start.data) return;
    if (!/^\d{6}$/.test(code.replace(/[\s-]/g, ""))) {
      setError("Enter the 6-digit code your app shows");
      return;
    }
    setError(null);
    confirm.mutate(
      { factor_id: start.data.factor_id, code, ...(name.trim() ? { name: name.trim() } : {}) },
      {
        onSuccess: (result) => onAdded(result.factor, result.recovery_codes),
        onError: (failure) => {
          setError(fieldErrorsOf(failure).find((e) => e.path === "code")?.message ?? messageOf(failure));
          setCode("");
        },
      },
    );
  }

  return (
    <Dialog
      title="Add an authenticator app"
      description="Scan the QR code with an app such as 1Password, Google Authenticator or Authy, then enter the code it shows."
      onClose={onClose}
      onSubmit={submit}
      busy={confirm.isPending}
      footer={<FormActions onCancel={onClose} pending={confirm.isPending} submitLabel="Add app" />}
    >
      {start.isError ? (
        <Alert tone="danger">{messageOf(start.error)}</Alert>
      ) : !start.data ? (
        <div className="space-y-3" aria-busy="true">
          <Skeleton className="mx-auto size-44" />
          <Skeleton className="h-4 w-2/3" />
        </div>
      ) : (
        <div className="space-y-4">
          {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL made by the server, shown once */}
          <img
            src={start.data.qr_code}
            alt="QR code to scan with your authenticator app"
            className="mx-auto size-44 rounded-md bg-white p-1 ring-1 ring-slate-200"
            data-testid="totp-qr"
          />
          <div className="space-y-1">
            <p className="text-sm text-slate-600">Can&apos;t scan it? Enter this key in your app instead:</p>
            <div className="flex items-center gap-2">
              <code
                className="min-w-0 flex-1 rounded-md bg-slate-50 px-3 py-2 font-mono text-sm break-all text-slate-900 ring-1 ring-slate-200 select-all"
                data-testid="totp-secret"
              >
                {start.data.secret.replace(/(.{4})/g, "$1 ").trim()}
              </code>
              <CopyButton value={start.data.secret} label="Copy key" />
            </div>
          </div>
          <Field id="totp-name" label="Name" hint="To tell your apps apart, e.g. “Work phone”.">
            {(control) => <Input {...control} name="name" maxLength={60} value={name} onChange={(event) => setName(event.target.value)} />}
          </Field>
          <Field id="totp-code" label="Code from the app" error={error}>
            {(control) => (
              <Input
                {...control}
                name="code"
                autoComplete="one-time-code"
                inputMode="numeric"
                placeholder="123456"
                maxLength={9}
                data-autofocus
                value={code}
                onChange={(event) => setCode(event.target.value)}
              />
            )}
          </Field>
        </div>
      )}
    </Dialog>
  );
}
