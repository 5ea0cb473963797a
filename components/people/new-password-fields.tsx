"use client";

import { MIN_PASSWORD_LENGTH, Password } from "@/server/contract/fields";
import type { FieldErrors } from "../form-errors";
import { Field } from "../ui/field";
import { Input } from "../ui/input";

/** A new password and its confirmation, checked as the server will: `password` or `confirm` errors, or none. */
export function newPasswordErrors(password: string, confirm: string): FieldErrors {
  const parsed = Password.safeParse(password);
  if (!parsed.success) return { password: `Password ${parsed.error.issues[0]?.message ?? "is not valid"}` };
  if (confirm !== password) return { confirm: "The passwords do not match" };
  return {};
}

interface NewPasswordFieldsProps {
  /** The two controls' ids: `${idPrefix}-password` and `${idPrefix}-confirm` (for useFormErrors' order). */
  idPrefix: string;
  labels?: { password: string; confirm: string };
  password: string;
  confirm: string;
  errors: FieldErrors;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
}

/** Choose a password, type it again: the set-password part of the invitation, reset and first-password forms. */
export function NewPasswordFields({
  idPrefix,
  labels = { password: "Password", confirm: "Confirm password" },
  password,
  confirm,
  errors,
  onPassword,
  onConfirm,
}: NewPasswordFieldsProps) {
  return (
    <>
      <Field
        id={`${idPrefix}-password`}
        label={labels.password}
        hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        error={errors.password}
      >
        {(control) => (
          <Input {...control} type="password" autoComplete="new-password" value={password} onChange={(e) => onPassword(e.target.value)} />
        )}
      </Field>
      <Field id={`${idPrefix}-confirm`} label={labels.confirm} error={errors.confirm}>
        {(control) => (
          <Input {...control} type="password" autoComplete="new-password" value={confirm} onChange={(e) => onConfirm(e.target.value)} />
        )}
      </Field>
    </>
  );
}
