"use client";

import { useState, type FormEvent } from "react";
import { Email } from "@/server/contract/fields";
import { useFormErrors } from "../form-errors";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { useHydrated } from "../use-hydrated";
import { callProcedure } from "./public-api";

const ORDER: Array<[string, string]> = [["email", "reset-email"]];

/** Asks for a reset link. The answer is the same whether or not the email has an account. */
export function ForgotPasswordForm() {
  const hydrated = useHydrated();
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const { errors, formError, setFormError, show, clear, fail } = useFormErrors(ORDER);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const parsed = Email.safeParse(email.trim());
    if (show(parsed.success ? {} : { email: "Email must be an email address" }) || !parsed.success) return;
    setSubmitting(true);
    try {
      const answer = await callProcedure<{ message: string }>("account.requestPasswordReset", { email: parsed.data });
      setSent(answer.message);
    } catch (error) {
      fail(error, null);
    } finally {
      setSubmitting(false);
    }
  }

  if (sent) {
    return (
      <Alert tone="success" title="Check your email">
        {sent} The link works once, for 30 minutes.
      </Alert>
    );
  }
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      {formError ? <Alert tone="danger">{formError}</Alert> : null}
      <Field id="reset-email" label="Email" error={errors.email}>
        {(control) => (
          <Input
            {...control}
            type="email"
            inputMode="email"
            autoComplete="username"
            value={email}
            onChange={(e) => (setEmail(e.target.value), clear("email"))}
          />
        )}
      </Field>
      <Button type="submit" className="w-full" disabled={!hydrated} loading={submitting}>
        Email me a reset link
      </Button>
    </form>
  );
}
