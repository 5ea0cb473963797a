"use client";

import { useEffect, useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { signIn, signOut } from "next-auth/react";
import type { AcceptedInvitation, InvitationPreview } from "@/server/invitations/schemas";
import { useFormErrors, serverErrors } from "../form-errors";
import { consoleUrl } from "../console/urls";
import { messageOf, statusOf } from "../trpc";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Spinner } from "../ui/spinner";
import { useHydrated } from "../use-hydrated";
import { NewPasswordFields, newPasswordErrors } from "../people/new-password-fields";
import { callProcedure } from "./public-api";
import { forgetInvitationToken, invitationToken, keepInvitationToken } from "./invite-token";

const LABELS = { password: "Password", name: "Name" };
const ORDER: Array<[string, string]> = [
  ["name", "invite-name"],
  ["password", "invite-password"],
  ["confirm", "invite-confirm"],
];

interface Session {
  email: string;
  /** Signed in through this tenant's SSO: the session reaches it only. */
  ssoTenantId: string | null;
}

type State =
  | { kind: "loading" }
  | { kind: "invalid"; message: string }
  | { kind: "ready"; token: string; invitation: InvitationPreview; session: Session | null }
  /** Accepted in a session that does not reach the tenant (an SSO sign-in of another). */
  | { kind: "joined-elsewhere"; tenantName: string };

async function currentSession(): Promise<Session | null> {
  const session = (await fetch("/api/auth/session")
    .then((r) => r.json())
    .catch(() => null)) as { user?: { email?: string; ssoTenantId?: string | null } } | null;
  const email = session?.user?.email?.toLowerCase();
  return email ? { email, ssoTenantId: session?.user?.ssoTenantId ?? null } : null;
}

/**
 * The invitation link's page: who invites you where, then either choose a password (an email new to
 * the platform gets its account) or sign in and accept. The page is never told whether the email
 * has an account; when it has, accepting with a password is refused with 401 and the page says to
 * sign in instead.
 */
export function InviteForm() {
  const router = useRouter();
  const [state, setState] = useState<State>({ kind: "loading" });
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [submitting, setSubmitting] = useState(false);
  /** The server's word (401 or 403) that this email accepts by signing in. */
  const [signInNeeded, setSignInNeeded] = useState<{ status: number; message: string } | null>(null);
  const { errors, formError, setFormError, show, clear, fail } = useFormErrors(ORDER);

  const hydrated = useHydrated();
  // Read once hydrated: the server never sees the fragment, nor this tab's storage.
  const found = hydrated ? invitationToken() : undefined;

  useEffect(() => {
    const token = invitationToken();
    if (!token) return;
    Promise.all([callProcedure<InvitationPreview>("invitations.preview", { token }), currentSession()])
      .then(([invitation, session]) => setState({ kind: "ready", token, invitation, session }))
      .catch((error: unknown) => {
        forgetInvitationToken();
        setState({ kind: "invalid", message: messageOf(error) });
      });
  }, []);

  if (found === null && state.kind === "loading") {
    return (
      <Alert tone="danger" title="This invitation cannot be used">
        This page needs the link from your invitation email.
      </Alert>
    );
  }
  if (state.kind === "loading") {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-600" role="status">
        <Spinner /> Checking your invitation…
      </p>
    );
  }
  if (state.kind === "invalid") {
    return (
      <Alert tone="danger" title="This invitation cannot be used">
        {state.message}
      </Alert>
    );
  }
  if (state.kind === "joined-elsewhere") {
    return (
      <div className="space-y-5">
        <Alert tone="success" title={`You joined ${state.tenantName}`}>
          You are signed in through another organisation&apos;s single sign-on, which opens that organisation only. To open{" "}
          {state.tenantName}, sign out and sign in again with your password.
        </Alert>
        <Button className="w-full" onClick={() => router.replace(consoleUrl.tenants())}>
          Go to the console
        </Button>
      </div>
    );
  }

  const { invitation, token, session } = state;
  const signedInAsInvitee = session?.email === invitation.email;

  /** Off to sign in; the token waits in this tab's session storage, and /invite picks it up again. */
  async function goSignIn() {
    keepInvitationToken(token);
    if (session) await signOut({ redirect: false });
    router.push(`${consoleUrl.login()}?callbackUrl=${encodeURIComponent("/invite")}`);
  }

  async function accept(event?: FormEvent<HTMLFormElement>) {
    event?.preventDefault();
    setFormError(null);
    const creating = !signedInAsInvitee;
    if (creating && show(newPasswordErrors(password, confirm))) return;
    setSubmitting(true);
    try {
      const accepted = await callProcedure<AcceptedInvitation>(
        "invitations.accept",
        creating ? { token, password, name: name.trim() || undefined } : { token },
      );
      forgetInvitationToken();
      if (creating) {
        const result = await signIn("credentials", { redirect: false, email: accepted.email, password });
        if (!result || result.error) return router.replace(consoleUrl.login());
      } else if (session?.ssoTenantId && session.ssoTenantId !== accepted.tenant_id) {
        return setState({ kind: "joined-elsewhere", tenantName: invitation.tenant_name });
      }
      router.replace(consoleUrl.tenant(accepted.tenant_id));
    } catch (error) {
      setSubmitting(false);
      const status = statusOf(error);
      if (creating && (status === 401 || status === 403)) setSignInNeeded({ status, message: messageOf(error) });
      else fail(error, status === 400 ? serverErrors(error, LABELS) : null);
    }
  }

  const intro = (
    <p className="text-sm text-slate-700">
      You are invited to <span className="font-semibold text-slate-900">{invitation.tenant_name}</span> as{" "}
      {invitation.role === "admin" ? "an admin" : "a viewer"}, with{" "}
      <span className="font-medium break-all text-slate-900">{invitation.email}</span>.
    </p>
  );

  if (signedInAsInvitee) {
    return (
      <form onSubmit={accept} noValidate className="space-y-5">
        {intro}
        <p className="text-sm text-slate-700">
          You are signed in as <span className="font-medium break-all text-slate-900">{invitation.email}</span>.
        </p>
        {formError ? <Alert tone="danger">{formError}</Alert> : null}
        <Button type="submit" className="w-full" loading={submitting}>
          <span className="min-w-0 truncate">{submitting ? "Joining…" : `Accept as ${invitation.email}`}</span>
        </Button>
      </form>
    );
  }

  if (signInNeeded) {
    return (
      <div className="space-y-5">
        {intro}
        <Alert tone="warning" title="Sign in to accept">
          {signInNeeded.status === 401
            ? `${signInNeeded.message}, with your password or your organisation's single sign-on. You come back to this page to accept.`
            : `${signInNeeded.message}.`}
        </Alert>
        <Button className="w-full" onClick={goSignIn}>
          Sign in to accept
        </Button>
      </div>
    );
  }

  return (
    <div className="space-y-5">
      {intro}
      {session ? (
        <Alert tone="info" title={`You are signed in as ${session.email}`}>
          This invitation is for {invitation.email}. Sign out to sign in as {invitation.email}, or to create its account below.
        </Alert>
      ) : null}
      <form onSubmit={accept} noValidate className="space-y-5">
        <h2 id="invite-new-title" className="text-sm font-semibold text-slate-900">
          New here? Choose a password to create your account
        </h2>
        {formError ? <Alert tone="danger">{formError}</Alert> : null}
        <Field id="invite-name" label="Your name (optional)" error={errors.name}>
          {(control) => <Input {...control} autoComplete="name" value={name} onChange={(e) => (setName(e.target.value), clear("name"))} />}
        </Field>
        <NewPasswordFields
          idPrefix="invite"
          labels={{ password: "Choose a password", confirm: "Confirm password" }}
          password={password}
          confirm={confirm}
          errors={errors}
          onPassword={(value) => (setPassword(value), clear("password"))}
          onConfirm={(value) => (setConfirm(value), clear("confirm"))}
        />
        <Button type="submit" className="w-full" loading={submitting}>
          <span className="min-w-0 truncate">{submitting ? "Joining…" : `Join ${invitation.tenant_name}`}</span>
        </Button>
      </form>
      <div className="flex items-center gap-3 text-xs text-slate-500" aria-hidden="true">
        <span className="h-px flex-1 bg-slate-200" />
        or
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <section aria-labelledby="invite-existing-title" className="space-y-3">
        <h2 id="invite-existing-title" className="text-sm font-semibold text-slate-900">
          Already have an account?
        </h2>
        <p className="text-sm text-slate-600">Sign in as {invitation.email}, then accept. Your password stays as it is.</p>
        <Button variant="secondary" className="w-full" onClick={goSignIn}>
          {session ? "Sign out and sign in to accept" : "Sign in, then accept"}
        </Button>
      </section>
    </div>
  );
}
