"use client";

import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ChangePasswordInput } from "@/server/account/schemas";
import { schemaErrors, serverErrors, useFormErrors } from "../form-errors";
import { statusOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Card, CardBody, CardHeader } from "../ui/card";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { useHydrated } from "../use-hydrated";

const LABELS = { current_password: "Current password", new_password: "New password" };
const ORDER: Array<[string, string]> = [
  ["current_password", "current-password"],
  ["new_password", "new-password"],
  ["confirm", "confirm-password"],
];

/** Changing one's own password: the current one, then the new one twice. */
export function ChangePasswordForm() {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const queryClient = useQueryClient();
  const change = useMutation(trpc.account.changePassword.mutationOptions());
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const { errors, formError, setFormError, show, fail } = useFormErrors(ORDER);
  const [done, setDone] = useState(false);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    setDone(false);
    const parsed = ChangePasswordInput.safeParse({ current_password: current, new_password: next });
    const found = parsed.success ? {} : schemaErrors(parsed.error, LABELS);
    if (!found.new_password && next !== confirm) found.confirm = "The new passwords do not match";
    if (show(found) || !parsed.success) return;
    change.mutate(parsed.data, {
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.account.sessions.queryKey() });
        setCurrent("");
        setNext("");
        setConfirm("");
        setDone(true);
      },
      onError: (error) => fail(error, statusOf(error) === 400 ? serverErrors(error, LABELS) : null),
    });
  }

  return (
    <Card aria-labelledby="change-password-title">
      <CardHeader
        title={<span id="change-password-title">Change password</span>}
        description="You stay signed in here; every other session of your account is signed out."
      />
      <CardBody>
        <form onSubmit={submit} noValidate className="max-w-md space-y-4">
          {done ? <Alert tone="success">Your password has been changed, and your other sessions were signed out.</Alert> : null}
          {formError ? <Alert tone="danger">{formError}</Alert> : null}
          <Field id="current-password" label="Current password" error={errors.current_password}>
            {(control) => (
              <Input
                {...control}
                type="password"
                autoComplete="current-password"
                value={current}
                onChange={(event) => setCurrent(event.target.value)}
              />
            )}
          </Field>
          <Field
            id="new-password"
            label="New password"
            hint={errors.new_password ? undefined : "At least 8 characters."}
            error={errors.new_password}
          >
            {(control) => (
              <Input
                {...control}
                type="password"
                autoComplete="new-password"
                value={next}
                onChange={(event) => setNext(event.target.value)}
              />
            )}
          </Field>
          <Field id="confirm-password" label="Confirm new password" error={errors.confirm}>
            {(control) => (
              <Input
                {...control}
                type="password"
                autoComplete="new-password"
                value={confirm}
                onChange={(event) => setConfirm(event.target.value)}
              />
            )}
          </Field>
          <Button type="submit" disabled={!hydrated} loading={change.isPending}>
            Change password
          </Button>
        </form>
      </CardBody>
    </Card>
  );
}
