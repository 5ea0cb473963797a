"use client";

import { useState } from "react";
import { signIn } from "next-auth/react";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { MFA_FAILED, MFA_REQUIRED } from "@/server/account/schemas";
import { SIGN_IN_FAILED, signInErrorMessage, WRONG_CREDENTIALS } from "./messages";

/** After a right password, an account with a second factor is asked for its code (or a recovery code). */
type SecondFactorStep = "totp" | "recovery_code" | null;

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
  const [secondFactor, setSecondFactor] = useState<SecondFactorStep>(null);
  const [code, setCode] = useState("");

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
    if (secondFactor && !code.trim()) {
      setError(secondFactor === "totp" ? "Enter the code from your authenticator app" : "Enter one of your recovery codes");
      return null;
    }
    setSubmitting(true);
    setError(null);
    let ok = false;
    try {
      const second = secondFactor === "totp" ? { totp_code: code.trim() } : secondFactor ? { recovery_code: code.trim() } : {};
      const result = await signIn("credentials", { redirect: false, email: typed, password, ...second });
      if (!result || result.error) {
        if (result?.error === MFA_REQUIRED) {
          // The password was right: ask for the second factor, without calling it an error.
          setSecondFactor("totp");
          setCode("");
          return null;
        }
        if (result?.error === MFA_FAILED) setCode("");
        setError(result ? (signInErrorMessage(result.error) ?? SIGN_IN_FAILED) : WRONG_CREDENTIALS);
        return null;
      }
      ok = true;
      setPassword("");
      setCode("");
      return typed;
    } catch {
      setError("The server could not be reached. Check your connection and try again.");
      return null;
    } finally {
      if (!(ok && keepBusy)) setSubmitting(false);
    }
  }

  return {
    email,
    setEmail,
    password,
    setPassword,
    error,
    setError,
    submitting,
    signInWithPassword,
    secondFactor,
    setSecondFactor,
    code,
    setCode,
  };
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
  if (form.secondFactor) return <SecondFactorField form={form} idPrefix={idPrefix} />;
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

/** The second step of a sign-in: the authenticator app's code, or a recovery code instead. */
function SecondFactorField({ form, idPrefix }: { form: PasswordSignIn; idPrefix: string }) {
  const totp = form.secondFactor === "totp";
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">
        {totp
          ? "Your account has two-factor authentication. Enter the 6-digit code your authenticator app shows."
          : "Enter one of the recovery codes you saved when you set up two-factor authentication. Each works once."}
      </p>
      <Field id={`${idPrefix}${totp ? "totp-code" : "recovery-code"}`} label={totp ? "Authentication code" : "Recovery code"}>
        {(control) => (
          <Input
            {...control}
            key={form.secondFactor}
            name={totp ? "totp_code" : "recovery_code"}
            autoComplete="one-time-code"
            inputMode={totp ? "numeric" : "text"}
            placeholder={totp ? "123456" : "xxxxx-xxxxx"}
            maxLength={totp ? 9 : 40}
            required
            data-autofocus
            autoFocus
            value={form.code}
            onChange={(event) => form.setCode(event.target.value)}
          />
        )}
      </Field>
      <button
        type="button"
        className="text-sm font-medium text-indigo-700 hover:text-indigo-800 hover:underline"
        onClick={() => {
          form.setCode("");
          form.setError(null);
          form.setSecondFactor(totp ? "recovery_code" : "totp");
        }}
      >
        {totp ? "Use a recovery code" : "Use your authenticator app"}
      </button>
    </div>
  );
}
