"use client";

import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { CreateInvitationInput, type SentInvitation } from "@/server/invitations/schemas";
import { schemaErrors, serverErrors, useFormErrors } from "../form-errors";
import { statusOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Dialog, FormActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Select } from "../ui/select";
import { ROLE_OPTIONS } from "./roles";

const LABELS = { email: "Email", role: "Role" };
const ORDER: Array<[string, string]> = [
  ["email", "invite-email"],
  ["role", "invite-role"],
];

/** Invites someone by email: they get a link (valid 7 days) to set their password and join. */
export function InviteDialog({
  tenantId,
  onSent,
  onClose,
}: {
  tenantId: string;
  onSent: (invitation: SentInvitation) => void;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const create = useMutation(trpc.invitations.create.mutationOptions());
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<"admin" | "viewer">("viewer");
  const { errors, formError, setFormError, show, clear, fail } = useFormErrors(ORDER);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const parsed = CreateInvitationInput.safeParse({
      tenant_id: tenantId,
      email: email.trim(),
      role,
    });
    if (!parsed.success) {
      show(schemaErrors(parsed.error, LABELS));
      return;
    }
    show({});
    create.mutate(parsed.data, {
      onSuccess: onSent,
      onError: (error) => fail(error, statusOf(error) === 400 ? serverErrors(error, LABELS) : null),
    });
  }

  return (
    <Dialog
      title="Invite someone"
      description="They get an email with a link, valid for 7 days, to set their password and join this tenant with the role you choose."
      onClose={onClose}
      onSubmit={submit}
      busy={create.isPending}
      size="md"
      footer={<FormActions onCancel={onClose} pending={create.isPending} submitLabel="Send invitation" />}
    >
      <div className="space-y-4">
        {formError ? <Alert tone="danger">{formError}</Alert> : null}
        <Field id="invite-email" label="Email" error={errors.email}>
          {(control) => (
            <Input
              {...control}
              type="email"
              inputMode="email"
              autoComplete="off"
              value={email}
              onChange={(event) => {
                setEmail(event.target.value);
                clear("email");
              }}
            />
          )}
        </Field>
        <Field
          id="invite-role"
          label="Role"
          error={errors.role}
          hint={
            role === "admin" ? "Admins can change the tenant: members, SSO and more." : "Viewers can look at the tenant but not change it."
          }
        >
          {(control) => (
            <Select {...control} value={role} onChange={(event) => setRole(event.target.value as "admin" | "viewer")}>
              {ROLE_OPTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
      </div>
    </Dialog>
  );
}
