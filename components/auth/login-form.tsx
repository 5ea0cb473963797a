"use client";

import type { FormEvent } from "react";
import { useRouter } from "next/navigation";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { useHydrated } from "../use-hydrated";
import { consoleUrl } from "../console/urls";
import { PasswordSignInFields, usePasswordSignIn } from "./password-sign-in";

export function LoginForm({ callbackUrl, initialError }: { callbackUrl: string; initialError: string | null }) {
  const router = useRouter();
  const hydrated = useHydrated();
  const form = usePasswordSignIn({ error: initialError });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Keep the button busy while the console loads.
    if (await form.signInWithPassword({ keepBusy: true })) router.replace(callbackUrl);
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-describedby={form.error ? "login-error" : undefined}>
      {form.error ? (
        <Alert tone="danger">
          <span id="login-error">{form.error}</span>
        </Alert>
      ) : null}
      <PasswordSignInFields form={form} />
      <Button type="submit" className="w-full" disabled={!hydrated} loading={form.submitting}>
        {form.submitting ? "Signing in…" : "Sign in"}
      </Button>
      <p className="text-center text-sm">
        <a href={consoleUrl.forgotPassword()} className="font-medium text-indigo-700 hover:text-indigo-800 hover:underline">
          Forgot password?
        </a>
      </p>
    </form>
  );
}
