import type { z } from "zod";
import { fieldErrorsOf } from "./trpc";

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
