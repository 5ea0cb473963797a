"use client";

import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { DIRECTORY_PROVIDERS, type DirectoryProvider } from "@/server/directories/schemas";
import { serverErrors, useFormErrors } from "../form-errors";
import { useTRPC } from "../trpc";
import { withStepUp } from "../auth/with-step-up";
import { Alert } from "../ui/alert";
import { Dialog, FormActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Select } from "../ui/select";
import { providerLabel } from "./provider-steps";
import type { DirectoryWithToken } from "./types";

const FIELD_IDS: Array<[string, string]> = [
  ["name", "directory-name"],
  ["provider", "directory-provider"],
];
const LABELS = { name: "Name", provider: "Identity provider" };

/**
 * Creates a directory: a name and the IdP that pushes to it (which picks the setup steps). Its
 * token writes people into the tenant, so creating one needs a fresh step-up.
 */
export function CreateDirectoryDialog({
  tenantId,
  ensureSteppedUp,
  onClose,
  onCreated,
}: {
  tenantId: string;
  ensureSteppedUp: (action: string) => Promise<boolean>;
  onClose: () => void;
  onCreated: (directory: DirectoryWithToken) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [provider, setProvider] = useState<DirectoryProvider>("okta");
  const { errors, formError, setFormError, show, clear, fail } = useFormErrors(FIELD_IDS);
  const create = useMutation(
    trpc.directories.create.mutationOptions({ onSuccess: () => queryClient.invalidateQueries(trpc.directories.pathFilter()) }),
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    if (show(name.trim() ? {} : { name: "Name must not be empty" })) return;
    let made: DirectoryWithToken | undefined;
    withStepUp(ensureSteppedUp, `create directory ${name.trim()}`, async () => {
      made = await create.mutateAsync({ tenant_id: tenantId, name: name.trim(), provider });
    }).then(
      (stepped) => {
        if (stepped && made) onCreated(made);
        else
          setFormError("Not created: a directory's token writes people into this tenant, so creating one needs you to confirm it's you.");
      },
      (error: unknown) => fail(error, serverErrors(error, LABELS)),
    );
  }

  return (
    <Dialog
      title="Add a directory"
      description="Your identity provider pushes people and groups here over SCIM, and deactivating someone there removes their access here."
      onClose={onClose}
      onSubmit={submit}
      busy={create.isPending}
      footer={<FormActions onCancel={onClose} pending={create.isPending} submitLabel="Create directory" />}
    >
      <div className="space-y-5">
        <Field id="directory-name" label="Name" hint="For you: e.g. the IdP and the team it syncs." error={errors.name}>
          {(control) => (
            <Input
              {...control}
              name="name"
              autoComplete="off"
              placeholder="Okta (employees)"
              value={name}
              onChange={(event) => {
                setName(event.target.value);
                clear("name");
              }}
            />
          )}
        </Field>
        <Field id="directory-provider" label="Identity provider" hint="Picks the setup steps shown next." error={errors.provider}>
          {(control) => (
            <Select
              {...control}
              name="provider"
              value={provider}
              onChange={(event) => setProvider(event.target.value as DirectoryProvider)}
            >
              {DIRECTORY_PROVIDERS.map((value) => (
                <option key={value} value={value}>
                  {providerLabel(value)}
                </option>
              ))}
            </Select>
          )}
        </Field>
        {formError ? <Alert tone="danger">{formError}</Alert> : null}
      </div>
    </Dialog>
  );
}
