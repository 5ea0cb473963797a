"use client";

import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { fieldErrorsOf, messageOf, statusOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Dialog, FormActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { popupErrorMessage } from "./messages";
import { navigateSsoPopup, onPopupResult, openSsoPopup } from "./sso-popup";

export interface StepUp {
  /**
   * True at once when the session stepped up less than 10 minutes ago; else asks the person to
   * confirm `action` ("disable Okta SAML": the dialog says "Confirm it's you to disable Okta
   * SAML") and resolves true once the server accepted it, false if the person cancelled.
   * `fresh`: always ask (removing the last second factor needs a step-up of the last 2 minutes).
   */
  ensureSteppedUp: (action: string, options?: { fresh?: boolean }) => Promise<boolean>;
  /** The confirmation dialog: render it somewhere in the caller's tree. */
  dialog: ReactNode;
}

/** "Confirm with <provider>": the step-up runs at the session's IdP, in a popup. */
function useSsoStepUp(onDone: (steppedUp: boolean) => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const start = useMutation(trpc.account.startSsoStepUp.mutationOptions());
  const [waiting, setWaiting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(
    () =>
      onPopupResult("stepup", async (result) => {
        setWaiting(false);
        if (result.error) {
          setError(popupErrorMessage("stepup", result.error));
          return;
        }
        const me = await queryClient.fetchQuery({ ...trpc.account.me.queryOptions({}), staleTime: 0 }).catch(() => null);
        if (me?.step_up_expires_at) onDone(true);
        else setError("Not confirmed. Try again.");
      }),
    [onDone, queryClient, trpc],
  );

  function confirm(providerId: string) {
    // Opened in the click itself: browsers block popups opened later.
    const popup = openSsoPopup();
    if (!popup) {
      setError("Your browser blocked the sign-in window. Allow pop-ups for this site and try again.");
      return;
    }
    setError(null);
    start.mutate(
      { provider_id: providerId },
      {
        onSuccess: ({ url }) => {
          setWaiting(true);
          navigateSsoPopup(popup, url);
        },
        onError: (failure) => {
          popup.close();
          setError(messageOf(failure));
        },
      },
    );
  }
  return { confirm, waiting, error, pending: start.isPending };
}

function StepUpDialog({ action, onDone }: { action: string; onDone: (steppedUp: boolean) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const inputRef = useRef<HTMLInputElement>(null);
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  // "Use a recovery code": the recovery code alone, in place of the password and the app's code.
  const [useRecovery, setUseRecovery] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const stepUp = useMutation(trpc.account.stepUp.mutationOptions());
  const methods = useQuery(trpc.account.stepUpMethods.queryOptions({}, { staleTime: 60_000 }));
  const sso = useSsoStepUp(onDone);
  // Until the methods are known, and when they cannot be read, offer the password (as before).
  const withPassword = methods.data?.password ?? true;
  const provider = methods.data?.sso ?? null;
  const withTotp = withPassword && (methods.data?.totp ?? false);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!withPassword) return;
    if (useRecovery ? !code.trim() : !password || (withTotp && !code.trim())) {
      setError(useRecovery ? "Enter a recovery code" : !password ? "Enter your password" : "Enter the code from your authenticator app");
      inputRef.current?.focus();
      return;
    }
    setError(null);
    const proof = useRecovery ? { recovery_code: code.trim() } : withTotp ? { password, totp_code: code.trim() } : { password };
    stepUp.mutate(proof, {
      onSuccess: ({ step_up_expires_at }) => {
        queryClient.setQueryData(trpc.account.me.queryKey({}), (me) => (me ? { ...me, step_up_expires_at } : me));
        onDone(true);
      },
      onError: (failure) => {
        const status = statusOf(failure);
        const field = fieldErrorsOf(failure)[0]?.path;
        if ((failure as { data?: { appCode?: string } }).data?.appCode === "mfa_required") {
          // The methods were not known yet: the account has an app, so ask for its code.
          void methods.refetch();
          setError("Enter the code from your authenticator app");
          return;
        }
        const wrong =
          field === "totp_code"
            ? "Incorrect or already used code"
            : field === "recovery_code"
              ? "Incorrect or used recovery code"
              : "Incorrect password";
        setError(status === 401 ? wrong : messageOf(failure));
        if (field === "password") setPassword("");
        setCode("");
        inputRef.current?.focus();
      },
    });
  }

  const how = provider
    ? withPassword
      ? `Sign in again with ${provider.name}, or re-enter your password, to continue.`
      : `Sign in again with ${provider.name} to continue.`
    : withTotp
      ? "Re-enter your password and the code from your authenticator app to continue."
      : "Re-enter your password to continue.";

  return (
    <Dialog
      title={`Confirm it's you to ${action}`}
      description={how}
      onClose={() => onDone(false)}
      onSubmit={submit}
      busy={stepUp.isPending}
      footer={
        withPassword ? (
          <FormActions onCancel={() => onDone(false)} pending={stepUp.isPending} submitLabel="Confirm" />
        ) : (
          <Button type="button" variant="secondary" onClick={() => onDone(false)}>
            Cancel
          </Button>
        )
      }
    >
      <div className="space-y-4">
        {provider ? (
          <div className="space-y-3">
            <Button
              type="button"
              variant={withPassword ? "secondary" : "primary"}
              // Provider names can be long: the label wraps instead of overflowing at phone width.
              className="min-h-9 w-full h-auto! py-2 whitespace-normal! wrap-anywhere"
              data-autofocus={withPassword ? undefined : true}
              loading={sso.pending}
              onClick={() => sso.confirm(provider.provider_id)}
            >
              {`Confirm with ${provider.name}`}
            </Button>
            {sso.waiting ? (
              <p className="text-sm text-slate-600" role="status">
                Finish signing in with {provider.name} in the window that opened.
              </p>
            ) : null}
            {sso.error ? <Alert tone="danger">{sso.error}</Alert> : null}
          </div>
        ) : null}
        {withPassword && !useRecovery ? (
          <Field id="step-up-password" label="Password" error={withTotp ? null : error}>
            {(control) => (
              <Input
                {...control}
                ref={inputRef}
                type="password"
                name="password"
                autoComplete="current-password"
                value={password}
                onChange={(event) => setPassword(event.target.value)}
              />
            )}
          </Field>
        ) : null}
        {withTotp || useRecovery ? (
          <Field
            id={useRecovery ? "step-up-recovery-code" : "step-up-totp-code"}
            label={useRecovery ? "Recovery code" : "Authentication code"}
            hint={useRecovery ? "One of the codes you saved when you set up two-factor authentication; each works once." : undefined}
            error={error}
          >
            {(control) => (
              <Input
                {...control}
                ref={useRecovery ? inputRef : undefined}
                name={useRecovery ? "recovery_code" : "totp_code"}
                autoComplete="one-time-code"
                inputMode={useRecovery ? "text" : "numeric"}
                placeholder={useRecovery ? "xxxxx-xxxxx" : "123456"}
                maxLength={useRecovery ? 40 : 9}
                value={code}
                onChange={(event) => setCode(event.target.value)}
              />
            )}
          </Field>
        ) : null}
        {withTotp ? (
          <button
            type="button"
            className="text-sm font-medium text-indigo-700 hover:text-indigo-800 hover:underline"
            onClick={() => {
              setUseRecovery(!useRecovery);
              setCode("");
              setError(null);
            }}
          >
            {useRecovery ? "Use your password and authenticator app" : "Use a recovery code"}
          </button>
        ) : null}
      </div>
      <p className="sr-only" aria-live="assertive">
        {error ?? ""}
      </p>
    </Dialog>
  );
}

/**
 * Step-up for the console session: `const { ensureSteppedUp, dialog } = useStepUp();` then
 * `if (await ensureSteppedUp("disable Okta SAML")) disable()`, with `{dialog}` rendered by the caller.
 */
export function useStepUp(): StepUp {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [action, setAction] = useState<string | null>(null);
  const pending = useRef<((steppedUp: boolean) => void) | null>(null);

  const finish = useCallback((steppedUp: boolean) => {
    setAction(null);
    const resolve = pending.current;
    pending.current = null;
    resolve?.(steppedUp);
  }, []);

  const ensureSteppedUp = useCallback(
    async (what: string, options?: { fresh?: boolean }) => {
      if (!options?.fresh) {
        try {
          const me = await queryClient.fetchQuery({ ...trpc.account.me.queryOptions({}), staleTime: 0 });
          if (me.step_up_expires_at && Date.parse(me.step_up_expires_at) > Date.now()) return true;
        } catch {
          // Not known: ask; the step-up call will say what is wrong.
        }
      }
      pending.current?.(false);
      return new Promise<boolean>((resolve) => {
        pending.current = resolve;
        setAction(what);
      });
    },
    [queryClient, trpc],
  );

  return { ensureSteppedUp, dialog: action !== null ? <StepUpDialog action={action} onDone={finish} /> : null };
}
