"use client";

import { useState, type FormEvent } from "react";
import type { z } from "zod";
import { schemaErrors, serverErrors, useFormErrors } from "../form-errors";
import { statusOf } from "../trpc";
import { Alert } from "../ui/alert";
import { Dialog, FormActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Select } from "../ui/select";

/** What the person dialog's form holds, trimmed; empty optional fields are undefined. */
export interface PersonValues<Role extends string> {
  email: string;
  name: string | undefined;
  role: Role;
  password: string | undefined;
}

/** The few things of a mutation the dialog uses (TanStack Query's useMutation result fits). */
interface Submitting<Input, Output> {
  mutate: (input: Input, options: { onSuccess: (output: Output) => void; onError: (error: unknown) => void }) => void;
  isPending: boolean;
}

interface PersonDialogProps<Role extends string, Input, Output> {
  /** Prefixes the controls' ids ("member" → "member-email"). */
  idPrefix: string;
  title: string;
  description: string;
  submitLabel: string;
  role: {
    label: string;
    /** The request's field for the role ("role", "platform_role"), for its errors. */
    field: string;
    options: Array<{ value: Role; label: string }>;
    initial: Role;
    hint: (role: Role) => string;
  };
  /** An optional Name field. */
  name?: boolean;
  /** A password field, with its label and hint. */
  password?: { label: string; hint: string };
  /** The request from the form's values, checked by the request's own schema. */
  parse: (values: PersonValues<Role>) => z.ZodSafeParseResult<Input>;
  mutation: Submitting<Input, Output>;
  onDone: (output: Output) => void;
  onClose: () => void;
}

/**
 * The one form behind inviting someone, adding a member and creating a platform user: email,
 * optional name, a role with a hint, optional password; checked by the request's schema before
 * it is sent, the server's field errors shown on the fields, anything else above them.
 */
export function PersonDialog<Role extends string, Input, Output>({
  idPrefix,
  title,
  description,
  submitLabel,
  role: roleField,
  name: withName = false,
  password: passwordField,
  parse,
  mutation,
  onDone,
  onClose,
}: PersonDialogProps<Role, Input, Output>) {
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [role, setRole] = useState<Role>(roleField.initial);
  const [password, setPassword] = useState("");
  const id = (field: string) => `${idPrefix}-${field}`;
  const labels: Record<string, string> = {
    email: "Email",
    [roleField.field]: roleField.label,
    ...(withName ? { name: "Name" } : {}),
    ...(passwordField ? { password: passwordField.label.replace(/ \(optional\)$/, "") } : {}),
  };
  const order: Array<[string, string]> = [
    ["email", id("email")],
    ["name", id("name")],
    [roleField.field, id("role")],
    ["password", id("password")],
  ];
  const { errors, formError, setFormError, show, clear, fail } = useFormErrors(order);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const parsed = parse({ email: email.trim(), name: name.trim() || undefined, role, password: password || undefined });
    if (!parsed.success) {
      show(schemaErrors(parsed.error, labels));
      return;
    }
    show({});
    mutation.mutate(parsed.data, {
      onSuccess: onDone,
      onError: (error) => fail(error, statusOf(error) === 400 ? serverErrors(error, labels) : null),
    });
  }

  return (
    <Dialog
      title={title}
      description={description}
      onClose={onClose}
      onSubmit={submit}
      busy={mutation.isPending}
      size="md"
      footer={<FormActions onCancel={onClose} pending={mutation.isPending} submitLabel={submitLabel} />}
    >
      <div className="space-y-4">
        {formError ? <Alert tone="danger">{formError}</Alert> : null}
        <Field id={id("email")} label="Email" error={errors.email}>
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
        {withName ? (
          <Field id={id("name")} label="Name (optional)" error={errors.name}>
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
        ) : null}
        <Field id={id("role")} label={roleField.label} error={errors[roleField.field]} hint={roleField.hint(role)}>
          {(control) => (
            <Select {...control} value={role} onChange={(event) => setRole(event.target.value as Role)}>
              {roleField.options.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
        {passwordField ? (
          <Field id={id("password")} label={passwordField.label} error={errors.password} hint={passwordField.hint}>
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
        ) : null}
      </div>
    </Dialog>
  );
}
