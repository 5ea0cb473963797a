"use client";

import { useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { useHydrated } from "../use-hydrated";
import { consoleUrl } from "../console/urls";
import { SIGN_IN_FAILED, signInErrorMessage, WRONG_CREDENTIALS } from "./messages";

export function LoginForm({ callbackUrl, initialError }: { callbackUrl: string; initialError: string | null }) {
  const router = useRouter();
  const hydrated = useHydrated();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(initialError);
  const [submitting, setSubmitting] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!email.trim() || !password) {
      setError("Enter your email and password");
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      const result = await signIn("credentials", { redirect: false, email: email.trim(), password });
      if (!result || result.error) {
        setError(result ? (signInErrorMessage(result.error) ?? SIGN_IN_FAILED) : WRONG_CREDENTIALS);
        setSubmitting(false);
        return;
      }
      // Keep the button busy while the console loads.
      router.replace(callbackUrl);
    } catch {
      setError("The server could not be reached. Check your connection and try again.");
      setSubmitting(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-describedby={error ? "login-error" : undefined}>
      {error ? (
        <Alert tone="danger">
          <span id="login-error">{error}</span>
        </Alert>
      ) : null}
      <Field id="email" label="Email">
        {(control) => (
          <Input
            {...control}
            type="email"
            name="email"
            autoComplete="username"
            inputMode="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        )}
      </Field>
      <Field id="password" label="Password">
        {(control) => (
          <Input
            {...control}
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        )}
      </Field>
      <Button type="submit" className="w-full" disabled={!hydrated} loading={submitting}>
        {submitting ? "Signing in…" : "Sign in"}
      </Button>
      <p className="text-center text-sm">
        <a href={consoleUrl.forgotPassword()} className="font-medium text-indigo-700 hover:text-indigo-800 hover:underline">
          Forgot password?
        </a>
      </p>
    </form>
  );
}
