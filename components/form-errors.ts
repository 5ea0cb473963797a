import { useState } from "react";
import type { z } from "zod";
import { fieldErrorsOf, messageOf } from "./trpc";

/** Messages by field name, e.g. `{ email: "Email must be an email address" }`. */
export type FieldErrors = Record<string, string>;

/**
 * The schema's (or the server's) messages read as sentences about the form's fields: "must not
 * be empty" on `name` becomes "Name must not be empty". Fields not in `labels` are left out.
 */
function collect(entries: Array<{ path: string; message: string }>, labels: Record<string, string>): FieldErrors {
  const errors: FieldErrors = {};
  for (const { path, message } of entries) {
    const label = labels[path];
    if (label && !errors[path]) errors[path] = `${label} ${message}`;
  }
  return errors;
}

export function schemaErrors(error: z.ZodError, labels: Record<string, string>): FieldErrors {
  return collect(
    error.issues.map((issue) => ({ path: String(issue.path[0] ?? ""), message: issue.message })),
    labels,
  );
}

/** The field errors of a BAD_REQUEST answer (`error.data.errors: [{path, message}]`). */
export function serverErrors(error: unknown, labels: Record<string, string>): FieldErrors {
  return collect(fieldErrorsOf(error), labels);
}

/** Focuses the first field (in `order`) that has an error. */
export function focusFirstError(errors: FieldErrors, order: Array<[string, string]>) {
  const first = order.find(([field]) => errors[field]);
  if (first) document.getElementById(first[1])?.focus();
}

/**
 * A form's errors: messages on its fields (`order` gives each field's control, in form order, to
 * focus the first) and one message for the whole form.
 */
export function useFormErrors(order: Array<[string, string]>) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  /** Replaces the field errors with `found` and focuses the first; true when there is one. */
  const show = (found: FieldErrors) => {
    setErrors(found);
    focusFirstError(found, order);
    return Object.keys(found).length > 0;
  };
  return {
    errors,
    formError,
    setFormError,
    show,
    /** Drops a field's error (its value changed). */
    clear: (field: string) => {
      if (errors[field]) setErrors(({ [field]: _, ...rest }) => rest);
    },
    /** A request failed: `onFields` (its errors on the form's fields) if any, else its message on the form. */
    fail: (error: unknown, onFields: FieldErrors | null) => {
      if (onFields && Object.keys(onFields).length > 0) show(onFields);
      else setFormError(messageOf(error));
    },
  };
}
