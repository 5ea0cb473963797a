"use client";

import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { MAX_REASON_LENGTH, normaliseDomain, type Domain } from "@/server/domains/schemas";
import { serverErrors, useFormErrors } from "../form-errors";
import { useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Dialog, FormActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";

/** Adds a domain: the server normalises it (lowercase, punycode) and answers the record to publish. */
export function AddDomainDialog({
  tenantId,
  onClose,
  onAdded,
}: {
  tenantId: string;
  onClose: () => void;
  onAdded: (domain: Domain) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [value, setValue] = useState("");
  const { errors, formError, setFormError, show, clear, fail } = useFormErrors([["domain", "domain-name"]]);
  const create = useMutation(
    trpc.domains.create.mutationOptions({ onSettled: () => queryClient.invalidateQueries(trpc.domains.pathFilter()) }),
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const checked = normaliseDomain(value);
    if ("error" in checked) return void show({ domain: `Domain ${checked.error}` });
    create.mutate(
      { tenant_id: tenantId, domain: checked.domain },
      { onSuccess: onAdded, onError: (error) => fail(error, serverErrors(error, { domain: "Domain" })) },
    );
  }

  return (
    <Dialog
      title="Add a domain"
      description="An email domain your people sign in with. You will publish a DNS record to prove the tenant owns it."
      onClose={onClose}
      onSubmit={submit}
      busy={create.isPending}
      footer={<FormActions onCancel={onClose} pending={create.isPending} submitLabel="Add domain" />}
    >
      <div className="space-y-5">
        <Field id="domain-name" label="Domain" hint="Without www or https://, e.g. example.com." error={errors.domain}>
          {(control) => (
            <Input
              {...control}
              name="domain"
              inputMode="url"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              placeholder="example.com"
              value={value}
              onChange={(event) => {
                setValue(event.target.value);
                clear("domain");
              }}
            />
          )}
        </Field>
        {formError ? <Alert tone="danger">{formError}</Alert> : null}
      </div>
    </Dialog>
  );
}

/** A platform operator marks a domain verified without DNS; the reason goes to the audit log. */
export function OverrideDialog({
  tenantId,
  domain,
  onClose,
  onDone,
}: {
  tenantId: string;
  domain: Domain;
  onClose: () => void;
  onDone: (domain: Domain) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState("");
  const { errors, formError, setFormError, show, clear, fail } = useFormErrors([["reason", "override-reason"]]);
  const verify = useMutation(
    trpc.domains.verify.mutationOptions({ onSettled: () => queryClient.invalidateQueries(trpc.domains.pathFilter()) }),
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    if (!reason.trim()) return void show({ reason: "Reason is required: say how you know the tenant owns the domain" });
    verify.mutate(
      { tenant_id: tenantId, domain_id: domain.id, override: true, reason: reason.trim() },
      { onSuccess: onDone, onError: (error) => fail(error, serverErrors(error, { reason: "Reason" })) },
    );
  }

  return (
    <Dialog
      title={`Mark ${domain.domain} verified`}
      description="Operators only. Use it when the tenant cannot publish the DNS record; the domain is then not re-checked by DNS."
      onClose={onClose}
      onSubmit={submit}
      busy={verify.isPending}
      footer={<FormActions onCancel={onClose} pending={verify.isPending} submitLabel="Mark verified" />}
    >
      <div className="space-y-5">
        <Field
          id="override-reason"
          label="Reason"
          hint={`Recorded in the tenant's audit log with your name. Up to ${MAX_REASON_LENGTH} characters.`}
          error={errors.reason}
        >
          {(control) => (
            <Input
              {...control}
              name="reason"
              autoComplete="off"
              maxLength={MAX_REASON_LENGTH}
              placeholder="Confirmed with the registrar's records"
              value={reason}
              onChange={(event) => {
                setReason(event.target.value);
                clear("reason");
              }}
            />
          )}
        </Field>
        {formError ? <Alert tone="danger">{formError}</Alert> : null}
      </div>
    </Dialog>
  );
}
