"use client";

import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { serverErrors, useFormErrors } from "../form-errors";
import { fieldErrorsOf, statusOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { cx } from "../ui/cx";
import { Dialog, FormActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import type { ShownSecret } from "./new-secret-panel";

const LABELS = { name: "Name", redirect_uris: "Redirect URIs" };
const ORDER: Array<[string, string]> = [
  ["name", "application-name"],
  ["redirect_uris", "application-redirect-uris"],
];

/** The server names a bad URI as `redirect_uris.N`: shown on the one field, with its line number. */
function uriErrors(error: unknown): Record<string, string> {
  const found = serverErrors(error, LABELS);
  const line = fieldErrorsOf(error).find((f) => /^redirect_uris\.\d+$/.test(f.path));
  if (line && !found.redirect_uris) {
    found.redirect_uris = `Redirect URI on line ${Number(line.path.split(".")[1]) + 1} ${line.message}`;
  }
  return found;
}

/** Registers an application: its name and the exact URIs it may be sent back to. */
export function CreateApplicationDialog({ onCreated, onClose }: { onCreated: (shown: ShownSecret) => void; onClose: () => void }) {
  const trpc = useTRPC();
  const create = useMutation(trpc.ssoApplications.create.mutationOptions());
  const [name, setName] = useState("");
  const [uris, setUris] = useState("");
  const { errors, formError, setFormError, show, fail } = useFormErrors(ORDER);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const list = uris
      .split("\n")
      .map((u) => u.trim())
      .filter(Boolean);
    const found: Record<string, string> = {};
    if (!name.trim()) found.name = "Name must not be empty";
    if (!list.length) found.redirect_uris = "Redirect URIs must list at least one URL";
    if (show(found)) return;
    create.mutate(
      { name, redirect_uris: list },
      {
        onSuccess: (application) =>
          onCreated({
            id: application.id,
            name: application.name,
            clientId: application.client_id,
            clientSecret: application.client_secret,
          }),
        onError: (error) => fail(error, statusOf(error) === 400 ? uriErrors(error) : null),
      },
    );
  }

  return (
    <Dialog
      title="Register an application"
      description="An app of the platform that signs people in through their company's SSO."
      onClose={onClose}
      onSubmit={submit}
      busy={create.isPending}
      size="md"
      footer={<FormActions onCancel={onClose} pending={create.isPending} submitLabel="Register application" />}
    >
      <div className="space-y-4">
        {formError ? <Alert tone="danger">{formError}</Alert> : null}
        <Field id="application-name" label="Name" error={errors.name}>
          {(control) => <Input {...control} autoComplete="off" value={name} onChange={(event) => setName(event.target.value)} />}
        </Field>
        <Field
          id="application-redirect-uris"
          label="Redirect URIs"
          hint={errors.redirect_uris ? undefined : "One per line; matched exactly. https, or http for localhost only."}
          error={errors.redirect_uris}
        >
          {(control) => (
            <textarea
              {...control}
              rows={3}
              spellCheck={false}
              placeholder="https://app.example.com/auth/callback"
              value={uris}
              onChange={(event) => setUris(event.target.value)}
              className={cx(
                "block w-full rounded-md border-0 bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset",
                "placeholder:text-slate-500 focus:ring-2 focus:ring-indigo-600 focus:outline-none focus:ring-inset",
                "aria-invalid:ring-red-500",
              )}
            />
          )}
        </Field>
      </div>
    </Dialog>
  );
}
