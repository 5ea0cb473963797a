"use client";

import { useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { serverErrors, useFormErrors } from "../form-errors";
import { consoleUrl } from "../console/urls";
import { statusOf } from "../trpc";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Checkbox } from "../ui/checkbox";
import { NewPasswordFields, newPasswordErrors } from "../people/new-password-fields";
import { useHydrated } from "../use-hydrated";
import { callProcedure, linkToken } from "./public-api";

const LABELS = { password: "Password" };
const ORDER: Array<[string, string]> = [
  ["password", "new-password"],
  ["confirm", "new-confirm"],
];

/** Sets a new password with the emailed link (ending every session; API tokens too if asked), then signs in with it. */
export function ResetPasswordForm() {
  const router = useRouter();
  const hydrated = useHydrated();
  // Read once hydrated: the server never sees the fragment.
  const token = hydrated ? linkToken() : undefined;
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [revokeTokens, setRevokeTokens] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const { errors, formError, setFormError, show, clear, fail } = useFormErrors(ORDER);

  if (token === null) {
    return (
      <Alert tone="danger" title="This page needs the link from your email">
        Ask for a new link on{" "}
        <a href={consoleUrl.forgotPassword()} className="font-medium underline">
          Forgot password
        </a>
        .
      </Alert>
    );
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    if (show(newPasswordErrors(password, confirm)) || !token) return;
    setSubmitting(true);
    try {
      const { email } = await callProcedure<{ email: string }>("account.confirmPasswordReset", {
        token,
        password,
        revoke_tokens: revokeTokens,
      });
      const result = await signIn("credentials", { redirect: false, email, password });
      router.replace(!result || result.error ? consoleUrl.login() : consoleUrl.tenants());
    } catch (error) {
      setSubmitting(false);
      fail(error, statusOf(error) === 400 ? serverErrors(error, LABELS) : null);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      {formError ? (
        <Alert tone="danger">
          {formError}{" "}
          <a href={consoleUrl.forgotPassword()} className="font-medium underline">
            Ask for a new link
          </a>
        </Alert>
      ) : null}
      <NewPasswordFields
        idPrefix="new"
        labels={{ password: "New password", confirm: "Confirm new password" }}
        password={password}
        confirm={confirm}
        errors={errors}
        onPassword={(value) => (setPassword(value), clear("password"))}
        onConfirm={(value) => (setConfirm(value), clear("confirm"))}
      />
      <Checkbox
        id="revoke-tokens"
        label="Also revoke all my API tokens"
        description="Do this if someone else may have known your password. Every session of your account is signed out either way."
        checked={revokeTokens}
        onChange={(event) => setRevokeTokens(event.target.checked)}
      />
      <Button type="submit" className="w-full" disabled={!hydrated || token === undefined} loading={submitting}>
        {submitting ? "Saving…" : "Set new password"}
      </Button>
    </form>
  );
}
