"use client";

import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { Password, type Member } from "@/server/members/schemas";
import { useFormErrors, type FieldErrors } from "../form-errors";
import { useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Dialog, FormActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";

const ORDER: Array<[string, string]> = [
  ["password", "member-new-password"],
  ["confirm", "member-confirm-password"],
];

/** The first password of a member who has none, so that they can sign in to the console. */
export function SetPasswordDialog({ member, onDone, onClose }: { member: Member; onDone: (member: Member) => void; onClose: () => void }) {
  const trpc = useTRPC();
  const setPassword = useMutation(trpc.members.setPassword.mutationOptions());
  const [password, setValue] = useState("");
  const [confirm, setConfirm] = useState("");
  const { errors, formError, setFormError, show, fail } = useFormErrors(ORDER);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const parsed = Password.safeParse(password);
    const found: FieldErrors = {};
    if (!parsed.success) found.password = `Password ${parsed.error.issues[0]?.message ?? "is not valid"}`;
    else if (confirm !== password) found.confirm = "The passwords do not match";
    if (show(found)) return;
    setPassword.mutate(
      { tenant_id: member.tenant_id, user_id: member.user_id, password },
      { onSuccess: onDone, onError: (error) => fail(error, null) },
    );
  }

  return (
    <Dialog
      title="Set a password"
      description={
        <>
          <span className="font-medium text-slate-900">{member.email}</span> has no password yet. Set one and share it with them safely;
          they can change it from their profile.
        </>
      }
      onClose={onClose}
      onSubmit={submit}
      busy={setPassword.isPending}
      footer={<FormActions onCancel={onClose} pending={setPassword.isPending} submitLabel={"Set password"} />}
    >
      <div className="space-y-4">
        {formError ? <Alert tone="danger">{formError}</Alert> : null}
        <Field id="member-new-password" label="Password" hint="At least 8 characters." error={errors.password}>
          {(control) => (
            <Input
              {...control}
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(event) => setValue(event.target.value)}
            />
          )}
        </Field>
        <Field id="member-confirm-password" label="Confirm password" error={errors.confirm}>
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
      </div>
    </Dialog>
  );
}
