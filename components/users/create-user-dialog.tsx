"use client";

import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { CreatePlatformUserInput, type PlatformUser } from "@/server/account/schemas";
import type { PlatformRole } from "@/server/auth/principal";
import { schemaErrors, serverErrors, useFormErrors } from "../form-errors";
import { statusOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Dialog, FormActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Select } from "../ui/select";
import { PLATFORM_ROLE_HINT, PLATFORM_ROLE_LABEL } from "./roles";

const LABELS = { email: "Email", name: "Name", password: "First password", platform_role: "Platform role" };
const ORDER: Array<[string, string]> = [
  ["email", "user-email"],
  ["name", "user-name"],
  ["platform_role", "user-role"],
  ["password", "user-password"],
];

/** Creates an operator or support user with a first password the operator passes on. */
export function CreateUserDialog({ onCreated, onClose }: { onCreated: (user: PlatformUser) => void; onClose: () => void }) {
  const trpc = useTRPC();
  const create = useMutation(trpc.users.create.mutationOptions());
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [role, setRole] = useState<PlatformRole>("support");
  const [password, setPassword] = useState("");
  const { errors, formError, setFormError, show, clear, fail } = useFormErrors(ORDER);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const parsed = CreatePlatformUserInput.safeParse({
      email: email.trim(),
      name: name.trim() || undefined,
      password,
      platform_role: role,
    });
    if (!parsed.success) {
      show(schemaErrors(parsed.error, LABELS));
      return;
    }
    show({});
    create.mutate(parsed.data, {
      onSuccess: onCreated,
      onError: (error) => fail(error, statusOf(error) === 400 ? serverErrors(error, LABELS) : null),
    });
  }

  return (
    <Dialog
      title="Create a platform user"
      description="An operator or a support person. People of a tenant are added by that tenant's admins instead."
      onClose={onClose}
      onSubmit={submit}
      busy={create.isPending}
      size="md"
      footer={<FormActions onCancel={onClose} pending={create.isPending} submitLabel="Create user" />}
    >
      <div className="space-y-4">
        {formError ? <Alert tone="danger">{formError}</Alert> : null}
        <Field id="user-email" label="Email" error={errors.email}>
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
        <Field id="user-name" label="Name (optional)" error={errors.name}>
          {(control) => <Input {...control} autoComplete="off" value={name} onChange={(event) => setName(event.target.value)} />}
        </Field>
        <Field id="user-role" label="Platform role" error={errors.platform_role} hint={PLATFORM_ROLE_HINT[role]}>
          {(control) => (
            <Select {...control} value={role} onChange={(event) => setRole(event.target.value as PlatformRole)}>
              {(["support", "operator"] as const).map((value) => (
                <option key={value} value={value}>
                  {PLATFORM_ROLE_LABEL[value]}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field
          id="user-password"
          label="First password"
          error={errors.password}
          hint="At least 8 characters. Pass it on privately; they change it on their profile after signing in."
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
