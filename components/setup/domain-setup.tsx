"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Domain } from "@/server/domains/schemas";
import { fieldErrorsOf, messageOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { focusDomain, recordStepState, verifiedNote } from "./domain-steps";
import { Step, ValueRow } from "./setup-parts";

const STATE_TONE = { verified: "success", pending: "warning", failed: "danger" } as const;

/** The guided domain verification: add the domain, publish the TXT record, verify. */
export function DomainSetup() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const domains = useQuery(trpc.setup.domains.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.setup.domains.list.queryKey() });
  const [name, setName] = useState("");
  /** The domain added on this page: the steps follow it, not the tenant's other domains. */
  const [addedId, setAddedId] = useState<string | null>(null);
  const add = useMutation(
    trpc.setup.domains.add.mutationOptions({
      onSuccess: (domain) => {
        setName("");
        setAddedId(domain.id);
        void refresh();
      },
    }),
  );
  const list = domains.data ?? [];
  const focus = focusDomain(list, addedId);
  // The domain the steps follow first, then the tenant's others.
  const shown = focus ? [focus, ...list.filter((d) => d.id !== focus.id)] : list;
  return (
    <ol className="mt-2" aria-label="Steps">
      <Step n={1} title="Your email domain" state={list.length ? "done" : "current"} testId="step-domain">
        <form
          className="flex flex-col gap-2 sm:flex-row sm:items-start"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            add.mutate({ domain: name });
          }}
        >
          <Field
            id="setup-domain"
            label="Domain"
            className="flex-1"
            error={fieldErrorsOf(add.error)[0]?.message ?? (add.error ? messageOf(add.error) : null)}
          >
            {(c) => (
              <Input
                {...c}
                value={name}
                placeholder="example.com"
                autoComplete="off"
                spellCheck={false}
                onChange={(e) => setName(e.target.value)}
              />
            )}
          </Field>
          <Button type="submit" loading={add.isPending} className="sm:mt-6">
            Add domain
          </Button>
        </form>
      </Step>
      <Step n={2} title="Publish the DNS record, then verify" state={recordStepState(list, addedId)} testId="step-domain-record">
        {domains.error ? <Alert tone="danger">{messageOf(domains.error)}</Alert> : null}
        {shown.map((domain) => (
          <DomainRecord key={domain.id} domain={domain} onVerified={refresh} />
        ))}
      </Step>
    </ol>
  );
}

function DomainRecord({ domain, onVerified }: { domain: Domain; onVerified: () => void }) {
  const trpc = useTRPC();
  const verify = useMutation(trpc.setup.domains.verify.mutationOptions({ onSuccess: onVerified }));
  return (
    <section className="space-y-3 rounded-md border border-slate-200 p-4" data-testid="setup-domain" aria-label={domain.domain}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-medium break-all text-slate-900">{domain.domain}</h3>
        <Badge tone={STATE_TONE[domain.state]}>{domain.state}</Badge>
      </div>
      {domain.state === "verified" ? (
        <p className="text-sm text-emerald-800" data-testid="setup-domain-verified">
          {verifiedNote(domain)}
        </p>
      ) : (
        <>
          <p className="text-sm text-slate-700">At your DNS host, add a TXT record:</p>
          <dl className="space-y-2">
            <ValueRow label="Name (host)" value={domain.verification.name} testId="setup-txt-name" />
            <ValueRow label="Value" value={domain.verification.value} testId="setup-txt-value" />
          </dl>
          {domain.last_error ? (
            <p className="text-sm text-amber-800" data-testid="setup-domain-error">
              {domain.last_error}
            </p>
          ) : null}
          {verify.error ? <Alert tone="danger">{messageOf(verify.error)}</Alert> : null}
          <Button loading={verify.isPending} onClick={() => verify.mutate({ domain_id: domain.id })}>
            Verify
          </Button>
          <p className="text-xs text-slate-600">DNS changes can take a few minutes to show. We also keep checking for 7 days.</p>
        </>
      )}
    </section>
  );
}
