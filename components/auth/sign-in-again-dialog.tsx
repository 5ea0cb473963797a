"use client";

import { useEffect, useRef, useState, useSyncExternalStore, type FormEvent } from "react";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Dialog, FormActions } from "../ui/dialog";
import { PasswordSignInFields, usePasswordSignIn } from "./password-sign-in";
import { reauthStore } from "./reauth";
import { onPopupResult, postSsoSignInInPopup } from "./sso-popup";

const CLOSED = { open: false, notice: null };
const NOT_SAVED = "Your change was not saved because your session expired. What you typed is still on the page: save again to sign in.";
const cancel = () => reauthStore.finish("cancelled", NOT_SAVED);
/** Where the SSO popup lands once signed in: it tells this page and closes. */
const POPUP_DONE = "/auth/popup-done?for=signin";

async function sessionUserId(): Promise<string | null> {
  const session = (await fetch("/api/auth/session")
    .then((r) => r.json())
    .catch(() => null)) as { user?: { id?: string } } | null;
  return session?.user?.id ?? null;
}

export interface SignInAgainUser {
  userId: string;
  email: string;
  /** Set when the session was signed in through SSO: signing in again goes there first. */
  ssoTenantId?: string | null;
}

/** Once signed in again (password or SSO): the waiting saves go through if it is the same person. */
async function signedIn(user: SignInAgainUser, as: string) {
  if ((await sessionUserId()) === user.userId) {
    reauthStore.finish("same-user");
    return;
  }
  reauthStore.finish(
    "other-user",
    `You are now signed in as ${as}, not ${user.email}, so the change was not saved: it was made as ${user.email}. What you typed is still on the page; reload to continue as ${as}.`,
  );
}

/**
 * Over the page when a save found the session expired: sign in again (as the same user) with a
 * password, or with SSO in a popup, and the save goes through. Everything typed stays underneath.
 */
export function SignInAgainDialog({ user }: { user: SignInAgainUser }) {
  const { open, notice } = useSyncExternalStore(reauthStore.subscribe, reauthStore.get, () => CLOSED);
  return (
    <>
      {open ? <SignInAgainForm user={user} /> : null}
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

function SignInAgainForm({ user }: { user: SignInAgainUser }) {
  const form = usePasswordSignIn({ email: user.email });
  const viaSso = Boolean(user.ssoTenantId);
  const [withPassword, setWithPassword] = useState(!viaSso);
  const [waitingForSso, setWaitingForSso] = useState(false);

  // The channel stays open while the dialog is; it reads the latest form through the ref.
  const latest = useRef({ form, user });
  useEffect(() => {
    latest.current = { form, user };
  });
  useEffect(
    () =>
      onPopupResult("signin", (result) => {
        const { form: now, user: who } = latest.current;
        setWaitingForSso(false);
        if (result.error) now.setError("The SSO sign-in did not complete. Try again.");
        else void signedIn(who, now.email.trim() || who.email);
      }),
    [],
  );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!withPassword) return;
    const as = await form.signInWithPassword();
    if (as) await signedIn(user, as);
  }

  function continueWithSso() {
    form.setError(null);
    if (postSsoSignInInPopup(form.email.trim() || user.email, POPUP_DONE)) setWaitingForSso(true);
    else form.setError("Your browser blocked the sign-in window. Allow pop-ups for this site, or sign in with your password.");
  }

  return (
    <Dialog
      title="Your session has expired"
      description="Sign in again to finish saving. What you typed stays as it is."
      onClose={cancel}
      onSubmit={submit}
      busy={form.submitting}
      footer={
        withPassword ? (
          <FormActions onCancel={cancel} pending={form.submitting} submitLabel="Sign in and save" />
        ) : (
          <Button type="button" variant="secondary" onClick={cancel}>
            Cancel
          </Button>
        )
      }
    >
      <div className="space-y-4">
        {form.error ? <Alert tone="danger">{form.error}</Alert> : null}
        {withPassword ? <PasswordSignInFields form={form} idPrefix="reauth-" focusPassword /> : null}
        <Button
          type="button"
          variant={withPassword ? "secondary" : "primary"}
          className="w-full"
          data-autofocus={withPassword ? undefined : true}
          onClick={continueWithSso}
        >
          {withPassword ? "Continue with SSO instead" : "Continue with SSO"}
        </Button>
        {waitingForSso ? (
          <p className="text-sm text-slate-600" role="status">
            Finish signing in in the window that opened; the save goes through once you are back.
          </p>
        ) : null}
        {withPassword ? null : (
          <button type="button" className="text-sm font-medium text-indigo-700 hover:underline" onClick={() => setWithPassword(true)}>
            Use a password instead
          </button>
        )}
      </div>
    </Dialog>
  );
}
