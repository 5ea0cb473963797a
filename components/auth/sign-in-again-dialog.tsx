"use client";

import { useState, useSyncExternalStore, type FormEvent } from "react";
import { signIn } from "next-auth/react";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Dialog, FormActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { SIGN_IN_FAILED, signInErrorMessage, WRONG_CREDENTIALS } from "./messages";
import { reauthStore } from "./reauth";

const CLOSED = { open: false, notice: null };
const NOT_SAVED = "Your change was not saved because your session expired. What you typed is still on the page: save again to sign in.";
const cancel = () => reauthStore.finish("cancelled", NOT_SAVED);

async function sessionUserId(): Promise<string | null> {
  const session = (await fetch("/api/auth/session")
    .then((r) => r.json())
    .catch(() => null)) as { user?: { id?: string } } | null;
  return session?.user?.id ?? null;
}

/**
 * Over the page when a save found the session expired: sign in again (as the same user) and the
 * save goes through. Everything typed stays in the page underneath.
 */
export function SignInAgainDialog({ user }: { user: { userId: string; email: string } }) {
  const { open, notice } = useSyncExternalStore(reauthStore.subscribe, reauthStore.get, () => CLOSED);
  const [email, setEmail] = useState(user.email);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
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
        return;
      }
      setPassword("");
      if ((await sessionUserId()) === user.userId) {
        reauthStore.finish("same-user");
      } else {
        reauthStore.finish(
          "other-user",
          `You are now signed in as ${email.trim()}, not ${user.email}, so the change was not saved: it was made as ${user.email}. What you typed is still on the page; reload to continue as ${email.trim()}.`,
        );
      }
    } catch {
      setError("The server could not be reached. Check your connection and try again.");
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <>
      {open ? (
        <Dialog
          title="Your session has expired"
          description="Sign in again to finish saving. What you typed stays as it is."
          onClose={cancel}
          onSubmit={submit}
          busy={submitting}
          footer={<FormActions onCancel={cancel} pending={submitting} submitLabel="Sign in and save" />}
        >
          <div className="space-y-4">
            {error ? <Alert tone="danger">{error}</Alert> : null}
            <Field id="reauth-email" label="Email">
              {(control) => (
                <Input {...control} type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
              )}
            </Field>
            <Field id="reauth-password" label="Password">
              {(control) => (
                <Input
                  {...control}
                  type="password"
                  autoComplete="current-password"
                  data-autofocus
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
              )}
            </Field>
          </div>
        </Dialog>
      ) : null}
      {notice ? (
        <div className="fixed inset-x-4 bottom-4 z-50 mx-auto max-w-lg" data-testid="reauth-notice">
          <Alert
            tone="info"
            action={
              <Button variant="ghost" size="sm" onClick={reauthStore.dismissNotice}>
                Dismiss
              </Button>
            }
          >
            {notice}
          </Alert>
        </div>
      ) : null}
    </>
  );
}
