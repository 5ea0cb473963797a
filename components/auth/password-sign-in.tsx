"use client";

import { useState } from "react";
import { signIn } from "next-auth/react";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { SIGN_IN_FAILED, signInErrorMessage, WRONG_CREDENTIALS } from "./messages";

/**
 * Email + password sign-in through next-auth, shared by the login page and the sign-in-again
 * dialog: what was typed, the error to show, and the one submit that checks and signs in.
 */
export function usePasswordSignIn({
  email: initialEmail = "",
  error: initialError = null,
}: { email?: string; error?: string | null } = {}) {
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(initialError);
  const [submitting, setSubmitting] = useState(false);

  /**
   * Signs in with what was typed: the email signed in as, or null (the error says why). With
   * `keepBusy`, `submitting` stays true after success (the caller navigates away).
   */
  async function signInWithPassword({ keepBusy = false }: { keepBusy?: boolean } = {}): Promise<string | null> {
    const typed = email.trim();
    if (!typed || !password) {
      setError("Enter your email and password");
      return null;
    }
    setSubmitting(true);
    setError(null);
    let ok = false;
    try {
      const result = await signIn("credentials", { redirect: false, email: typed, password });
      if (!result || result.error) {
        setError(result ? (signInErrorMessage(result.error) ?? SIGN_IN_FAILED) : WRONG_CREDENTIALS);
        return null;
      }
      ok = true;
      setPassword("");
      return typed;
    } catch {
      setError("The server could not be reached. Check your connection and try again.");
      return null;
    } finally {
      if (!(ok && keepBusy)) setSubmitting(false);
    }
  }

  return { email, setEmail, password, setPassword, error, setError, submitting, signInWithPassword };
}

export type PasswordSignIn = ReturnType<typeof usePasswordSignIn>;

/** The email and password fields of a password sign-in (ids prefixed when several forms share a page). */
export function PasswordSignInFields({
  form,
  idPrefix = "",
  focusPassword = false,
}: {
  form: PasswordSignIn;
  idPrefix?: string;
  focusPassword?: boolean;
}) {
  return (
    <>
      <Field id={`${idPrefix}email`} label="Email">
        {(control) => (
          <Input
            {...control}
            type="email"
            name="email"
            autoComplete="username"
            inputMode="email"
            required
            value={form.email}
            onChange={(event) => form.setEmail(event.target.value)}
          />
        )}
      </Field>
      <Field id={`${idPrefix}password`} label="Password">
        {(control) => (
          <Input
            {...control}
            type="password"
            name="password"
            autoComplete="current-password"
            required
            data-autofocus={focusPassword ? true : undefined}
            value={form.password}
            onChange={(event) => form.setPassword(event.target.value)}
          />
        )}
      </Field>
    </>
  );
}
