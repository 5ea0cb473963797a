"use client";

import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import type { Member } from "@/server/members/schemas";
import { useFormErrors } from "../form-errors";
import { NewPasswordFields, newPasswordErrors } from "../people/new-password-fields";
import { useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Dialog, FormActions } from "../ui/dialog";

const ORDER: Array<[string, string]> = [
  ["password", "member-password"],
  ["confirm", "member-confirm"],
];

/** The first password of a member who has none, so that they can sign in to the console. */
export function SetPasswordDialog({ member, onDone, onClose }: { member: Member; onDone: (member: Member) => void; onClose: () => void }) {
  const trpc = useTRPC();
  const setPassword = useMutation(trpc.members.setPassword.mutationOptions());
  const [password, setValue] = useState("");
  const [confirm, setConfirm] = useState("");
  const { errors, formError, setFormError, show, clear, fail } = useFormErrors(ORDER);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    if (show(newPasswordErrors(password, confirm))) return;
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
        <NewPasswordFields
          idPrefix="member"
          password={password}
          confirm={confirm}
          errors={errors}
          onPassword={(value) => (setValue(value), clear("password"))}
          onConfirm={(value) => (setConfirm(value), clear("confirm"))}
        />
      </div>
    </Dialog>
  );
}
