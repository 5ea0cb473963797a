"use client";

import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { CreateTokenInput } from "@/server/tokens/schemas";
import { schemaErrors, serverErrors, useFormErrors } from "../form-errors";
import { statusOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Checkbox } from "../ui/checkbox";
import { Dialog, FormActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Select } from "../ui/select";
import { MAX_SEARCH_LENGTH } from "@/server/contract/page-query";
import { tenantChoiceText } from "../tenants/tenant-label";
import { useTenantSearch } from "../tenants/use-tenant-search";
import type { TenantChoices } from "./use-tenant-choices";

export interface CreatedToken {
  id: string;
  name: string;
  token: string;
}

const LABELS = { name: "Name", tenant_id: "Tenant", expires_at: "Expiry date" };
const ORDER: Array<[string, string]> = [
  ["name", "token-name"],
  ["tenant_id", "token-tenant"],
  ["expires_at", "token-expires"],
];

/** `YYYY-MM-DD` of a local date, as date inputs want it. */
function localDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The end of the chosen day in the person's time zone, as an ISO instant. */
function endOfDay(day: string): string {
  return new Date(`${day}T23:59:59.999`).toISOString();
}

/** Names a new API token and narrows it: one tenant, read-only, an expiry date. */
export function CreateTokenDialog({
  tenants,
  onCreated,
  onClose,
}: {
  tenants: TenantChoices;
  onCreated: (token: CreatedToken) => void;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const create = useMutation(trpc.tokens.create.mutationOptions());
  const [name, setName] = useState("");
  const [tenantId, setTenant] = useState("");
  const [readOnly, setReadOnly] = useState(false);
  const [expires, setExpires] = useState("");
  const { errors, formError, setFormError, show, fail } = useFormErrors(ORDER);
  const today = localDate(new Date());
  // The picker lists the tenants matching the search (the newest first while it is empty),
  // keeping the chosen one listed when a new search no longer matches it.
  const [term, setTerm] = useState("");
  const matches = useTenantSearch(term, { pageSize: 50 });
  const found = matches.data?.results ?? [];
  const [chosen, setChosen] = useState<{ id: string; name: string } | null>(null);
  const choices = chosen && !found.some((t) => t.id === chosen.id) ? [chosen, ...found] : found;
  function setTenantId(id: string) {
    setTenant(id);
    setChosen(choices.find((t) => t.id === id) ?? null);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const parsed = CreateTokenInput.safeParse({
      name,
      tenant_id: tenantId || undefined,
      read_only: readOnly,
      expires_at: expires ? endOfDay(expires) : undefined,
    });
    const found = parsed.success ? {} : schemaErrors(parsed.error, LABELS);
    if (expires && expires < today) found.expires_at = "Expiry date must be today or later";
    if (show(found) || !parsed.success) return;
    create.mutate(parsed.data, {
      onSuccess: (token) => onCreated({ id: token.id, name: token.name, token: token.token }),
      onError: (error) => fail(error, statusOf(error) === 400 ? serverErrors(error, LABELS) : null),
    });
  }

  const everywhere = tenants.platformRole === "operator" ? "All tenants (no tenant scope)" : "All your tenants";

  return (
    <Dialog
      title="Create an API token"
      description="A token acts as you, with your roles, narrowed by what you choose here."
      onClose={onClose}
      onSubmit={submit}
      busy={create.isPending}
      size="md"
      footer={<FormActions onCancel={onClose} pending={create.isPending} submitLabel={"Create token"} />}
    >
      <div className="space-y-4">
        {formError ? <Alert tone="danger">{formError}</Alert> : null}
        <Field id="token-name" label="Name" hint={errors.name ? undefined : "What it is for, e.g. CI deploys."} error={errors.name}>
          {(control) => <Input {...control} autoComplete="off" value={name} onChange={(event) => setName(event.target.value)} />}
        </Field>
        <div className="space-y-2">
          <Field id="token-tenant-search" label="Find a tenant" hint="Part of a name, or a tenant ID: the list below shows the matches.">
            {(control) => (
              <Input
                {...control}
                type="search"
                autoComplete="off"
                maxLength={MAX_SEARCH_LENGTH}
                value={term}
                onChange={(event) => setTerm(event.target.value)}
              />
            )}
          </Field>
          <Field
            id="token-tenant"
            label="Tenant"
            hint={tenantId ? "The token can act in this tenant only." : "Leave as is to let the token act wherever you can."}
            error={errors.tenant_id}
          >
            {(control) => (
              <Select {...control} value={tenantId} onChange={(event) => setTenantId(event.target.value)} disabled={tenants.loading}>
                <option value="">{tenants.loading ? "Loading tenants…" : everywhere}</option>
                {choices.map((tenant) => (
                  <option key={tenant.id} value={tenant.id}>
                    {tenantChoiceText(tenant)}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          {matches.isSuccess && term.trim() && found.length === 0 ? (
            <p className="text-sm text-slate-600" role="status">
              No tenant matches “{term.trim()}”.
            </p>
          ) : null}
        </div>
        <Checkbox
          id="token-read-only"
          label="Read-only"
          description="The token can read but never change anything."
          checked={readOnly}
          onChange={(event) => setReadOnly(event.target.checked)}
        />
        <Field
          id="token-expires"
          label="Expiry date (optional)"
          hint={errors.expires_at ? undefined : "The token stops working at the end of that day. Leave empty for no expiry."}
          error={errors.expires_at}
        >
          {(control) => (
            <Input
              {...control}
              type="date"
              min={today}
              value={expires}
              onChange={(event) => setExpires(event.target.value)}
              className="sm:w-48"
            />
          )}
        </Field>
      </div>
    </Dialog>
  );
}
