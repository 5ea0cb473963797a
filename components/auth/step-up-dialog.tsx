"use client";

import { useCallback, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { messageOf, statusOf, useTRPC } from "../trpc";
import { Dialog, FormActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";

export interface StepUp {
  /**
   * True at once when the session stepped up less than 10 minutes ago; else asks for the password
   * and resolves true once the server accepted it, false if the person cancelled.
   */
  ensureSteppedUp: () => Promise<boolean>;
  /** The password dialog: render it somewhere in the caller's tree. */
  dialog: ReactNode;
}

function StepUpDialog({ onDone }: { onDone: (steppedUp: boolean) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const inputRef = useRef<HTMLInputElement>(null);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const stepUp = useMutation(trpc.auth.stepUp.mutationOptions());

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!password) {
      setError("Enter your password");
      inputRef.current?.focus();
      return;
    }
    setError(null);
    stepUp.mutate(
      { password },
      {
        onSuccess: ({ step_up_expires_at }) => {
          queryClient.setQueryData(trpc.auth.me.queryKey({}), (me) => (me ? { ...me, step_up_expires_at } : me));
          onDone(true);
        },
        onError: (failure) => {
          const status = statusOf(failure);
          setError(status === 401 ? "Incorrect password" : messageOf(failure));
          setPassword("");
          inputRef.current?.focus();
        },
      },
    );
  }

  return (
    <Dialog
      title="Confirm it's you"
      description="Re-enter your password to continue."
      onClose={() => onDone(false)}
      onSubmit={submit}
      busy={stepUp.isPending}
      footer={<FormActions onCancel={() => onDone(false)} pending={stepUp.isPending} submitLabel={"Confirm"} />}
    >
      <Field id="step-up-password" label="Password" error={error}>
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
      <p className="sr-only" aria-live="assertive">
        {error ?? ""}
      </p>
    </Dialog>
  );
}

/**
 * Step-up for the console session: `const { ensureSteppedUp, dialog } = useStepUp();` then
 * `if (await ensureSteppedUp()) disable()`, with `{dialog}` rendered by the caller.
 */
export function useStepUp(): StepUp {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const pending = useRef<((steppedUp: boolean) => void) | null>(null);

  const finish = useCallback((steppedUp: boolean) => {
    setOpen(false);
    const resolve = pending.current;
    pending.current = null;
    resolve?.(steppedUp);
  }, []);

  const ensureSteppedUp = useCallback(async () => {
    try {
      const me = await queryClient.fetchQuery({ ...trpc.auth.me.queryOptions({}), staleTime: 0 });
      if (me.step_up_expires_at && Date.parse(me.step_up_expires_at) > Date.now()) return true;
    } catch {
      // Not known: ask for the password; the step-up call will say what is wrong.
    }
    pending.current?.(false);
    return new Promise<boolean>((resolve) => {
      pending.current = resolve;
      setOpen(true);
    });
  }, [queryClient, trpc]);

  return { ensureSteppedUp, dialog: open ? <StepUpDialog onDone={finish} /> : null };
}
