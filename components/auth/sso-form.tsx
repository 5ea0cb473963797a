"use client";

import { useState } from "react";
import { Button } from "../ui/button";
import { Field } from "../ui/field";
import { Input } from "../ui/input";

/**
 * "Continue with SSO": a plain form POST to /api/sso/signin, which finds the provider of the work
 * email's domain and sends the browser to its identity provider (works without JavaScript too).
 */
export function SsoForm({ callbackUrl, open: initiallyOpen }: { callbackUrl: string; open: boolean }) {
  const [open, setOpen] = useState(initiallyOpen);
  const [submitting, setSubmitting] = useState(false);
  if (!open) {
    return (
      <Button type="button" variant="secondary" className="w-full" onClick={() => setOpen(true)}>
        Continue with SSO
      </Button>
    );
  }
  return (
    <form method="post" action="/api/sso/signin" className="space-y-4" onSubmit={() => setSubmitting(true)} aria-label="Sign in with SSO">
      {callbackUrl ? <input type="hidden" name="callbackUrl" value={callbackUrl} /> : null}
      <Field id="sso-email" label="Work email" hint="We send you to your company's identity provider.">
        {(control) => (
          <Input {...control} type="email" name="email" autoComplete="username" inputMode="email" required autoFocus={!initiallyOpen} />
        )}
      </Field>
      <Button type="submit" variant="secondary" className="w-full" loading={submitting}>
        {submitting ? "Redirecting…" : "Continue with SSO"}
      </Button>
    </form>
  );
}
