"use client";

import { useEffect, useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import type { AcceptedInvitation, InvitationPreview } from "@/server/invitations/schemas";
import { useFormErrors, serverErrors } from "../form-errors";
import { consoleUrl } from "../console/urls";
import { messageOf, statusOf } from "../trpc";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Spinner } from "../ui/spinner";
import { NewPasswordFields, newPasswordErrors } from "../people/new-password-fields";
import { useHydrated } from "../use-hydrated";
import { callProcedure, linkToken } from "./public-api";

const LABELS = { password: "Password", name: "Name" };
const ORDER: Array<[string, string]> = [
  ["name", "invite-name"],
  ["password", "invite-password"],
  ["confirm", "invite-confirm"],
];

type State =
  | { kind: "loading" }
  | { kind: "invalid"; message: string }
  | { kind: "ready"; token: string; invitation: InvitationPreview; signedInAs: string | null };

async function signedInEmail(): Promise<string | null> {
  const session = (await fetch("/api/auth/session")
    .then((r) => r.json())
    .catch(() => null)) as { user?: { email?: string } } | null;
  return session?.user?.email?.toLowerCase() ?? null;
}

/** The invitation link's page: who invites you where, then set a password (or sign in) and join. */
export function InviteForm() {
  const router = useRouter();
  const [state, setState] = useState<State>({ kind: "loading" });
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [submitting, setSubmitting] = useState(false);
  const { errors, formError, setFormError, show, clear, fail } = useFormErrors(ORDER);

  const hydrated = useHydrated();
  // Read once hydrated: the server never sees the fragment.
  const linkedToken = hydrated ? linkToken() : undefined;

  useEffect(() => {
    const token = linkToken();
    if (!token) return;
    Promise.all([callProcedure<InvitationPreview>("invitations.preview", { token }), signedInEmail()])
      .then(([invitation, signedInAs]) => setState({ kind: "ready", token, invitation, signedInAs }))
      .catch((error: unknown) => setState({ kind: "invalid", message: messageOf(error) }));
  }, []);

  if (linkedToken === null) {
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

  const { invitation, token, signedInAs } = state;
  const here = `/invite#token=${encodeURIComponent(token)}`;
  const mustSignIn = !invitation.needs_password && signedInAs !== invitation.email;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    if (invitation.needs_password) {
      if (show(newPasswordErrors(password, confirm))) return;
    }
    setSubmitting(true);
    try {
      const accepted = await callProcedure<AcceptedInvitation>("invitations.accept", {
        token,
        ...(invitation.needs_password ? { password, name: name.trim() || undefined } : {}),
      });
      if (invitation.needs_password) {
        const result = await signIn("credentials", { redirect: false, email: accepted.email, password });
        if (!result || result.error) {
          router.replace(consoleUrl.login());
          return;
        }
      }
      router.replace(consoleUrl.tenant(accepted.tenant_id));
    } catch (error) {
      setSubmitting(false);
      fail(error, statusOf(error) === 400 ? serverErrors(error, LABELS) : null);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <p className="text-sm text-slate-700">
        You are invited to <span className="font-semibold text-slate-900">{invitation.tenant_name}</span> as{" "}
        {invitation.role === "admin" ? "an admin" : "a viewer"}, with{" "}
        <span className="break-all font-medium text-slate-900">{invitation.email}</span>.
      </p>
      {formError ? <Alert tone="danger">{formError}</Alert> : null}
      {mustSignIn ? (
        <>
          <Alert tone="info">
            {invitation.email} already has an account{signedInAs ? ` (you are signed in as ${signedInAs})` : ""}. Sign in as{" "}
            {invitation.email}, then accept.
          </Alert>
          <Button className="w-full" onClick={() => router.push(`${consoleUrl.login()}?callbackUrl=${encodeURIComponent(here)}`)}>
            Sign in to accept
          </Button>
        </>
      ) : invitation.needs_password ? (
        <>
          <Field id="invite-name" label="Your name (optional)" error={errors.name}>
            {(control) => (
              <Input {...control} autoComplete="name" value={name} onChange={(e) => (setName(e.target.value), clear("name"))} />
            )}
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
            {submitting ? "Joining…" : `Join ${invitation.tenant_name}`}
          </Button>
        </>
      ) : (
        <Button type="submit" className="w-full" loading={submitting}>
          {submitting ? "Joining…" : `Accept and join ${invitation.tenant_name}`}
        </Button>
      )}
    </form>
  );
}
