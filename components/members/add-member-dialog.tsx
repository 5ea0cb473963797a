"use client";

import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { AddMemberInput, type Member } from "@/server/members/schemas";
import { schemaErrors, serverErrors, useFormErrors } from "../form-errors";
import { statusOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Dialog, FormActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Select } from "../ui/select";
import { ROLE_OPTIONS } from "./roles";

const LABELS = { email: "Email", name: "Name", role: "Role", password: "Password" };
const ORDER: Array<[string, string]> = [
  ["email", "member-email"],
  ["name", "member-name"],
  ["role", "member-role"],
  ["password", "member-password"],
];

/** Adds someone to the tenant by email; creates their user when the email is new to the platform. */
export function AddMemberDialog({
  tenantId,
  onAdded,
  onClose,
}: {
  tenantId: string;
  onAdded: (member: Member) => void;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const add = useMutation(trpc.members.add.mutationOptions());
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [role, setRole] = useState<"admin" | "viewer">("viewer");
  const [password, setPassword] = useState("");
  const { errors, formError, setFormError, show, clear, fail } = useFormErrors(ORDER);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const parsed = AddMemberInput.safeParse({
      tenant_id: tenantId,
      email: email.trim(),
      role,
      name: name.trim() || undefined,
      password: password || undefined,
    });
    if (!parsed.success) {
      show(schemaErrors(parsed.error, LABELS));
      return;
    }
    show({});
    add.mutate(parsed.data, {
      onSuccess: onAdded,
      onError: (error) => fail(error, statusOf(error) === 400 ? serverErrors(error, LABELS) : null),
    });
  }

  return (
    <Dialog
      title="Add a member"
      description="They get access to this tenant with the role you choose."
      onClose={onClose}
      onSubmit={submit}
      busy={add.isPending}
      size="md"
      footer={<FormActions onCancel={onClose} pending={add.isPending} submitLabel={"Add member"} />}
    >
      <div className="space-y-4">
        {formError ? <Alert tone="danger">{formError}</Alert> : null}
        <Field id="member-email" label="Email" error={errors.email}>
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
        <Field id="member-name" label="Name (optional)" error={errors.name}>
          {(control) => (
            <Input
              {...control}
              autoComplete="off"
              value={name}
              onChange={(event) => {
                setName(event.target.value);
                clear("name");
              }}
            />
          )}
        </Field>
        <Field
          id="member-role"
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
        <Field
          id="member-password"
          label="Password (optional)"
          error={errors.password}
          hint="Only for someone new to the platform: a person who already has an account keeps their own password. Without one, they cannot sign in until a password is set."
        >
          {(control) => (
            <Input
              {...control}
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(event) => {
                setPassword(event.target.value);
                clear("password");
              }}
            />
          )}
        </Field>
      </div>
    </Dialog>
  );
}
