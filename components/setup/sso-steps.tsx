"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { IDP_NAMES, IDP_PROVIDER_TYPE, type SetupIdp } from "@/server/setup-links/schemas";
import { MAX_PROVIDER_NAME_LENGTH, type MetadataSource, type SsoProvider } from "@/server/sso/schemas";
import { fieldErrorsOf, messageOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Checkbox } from "../ui/checkbox";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { MetadataSourceField, type MetadataFile } from "../sso/metadata-source-field";
import { IDP_GUIDES } from "./idp-guides";
import { TestOutcome } from "./setup-parts";

/** Once the provider exists: what its metadata says, and another document only when asked for. */
export function MetadataStep(props: { idp: SetupIdp; hint: string; provider: SsoProvider | null; onSaved: () => void }) {
  const [replacing, setReplacing] = useState(false);
  const { provider } = props;
  if (!provider || replacing)
    return (
      <MetadataForm
        {...props}
        onSaved={() => {
          setReplacing(false);
          props.onSaved();
        }}
      />
    );
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-700" data-testid="setup-metadata-summary">
      <p className="min-w-0 break-all">
        {provider.metadata_source === "xml" ? "From the uploaded file" : `From ${provider.metadata_url}`}
        {provider.metadata.entity_id ? (
          <>
            {" "}
            (entity ID <code className="font-mono text-xs text-slate-900">{provider.metadata.entity_id}</code>)
          </>
        ) : null}
      </p>
      <Button variant="secondary" size="sm" onClick={() => setReplacing(true)}>
        Replace
      </Button>
    </div>
  );
}

/** The IdP's metadata as a URL or a file (and the OIDC client); creates or updates the link's provider. */
export function MetadataForm({
  idp,
  hint,
  provider,
  onSaved,
}: {
  idp: SetupIdp;
  hint: string;
  provider: SsoProvider | null;
  onSaved: () => void;
}) {
  const trpc = useTRPC();
  const type = provider?.provider_type ?? IDP_PROVIDER_TYPE[idp];
  const [source, setSource] = useState<MetadataSource>(idp === "google_workspace" || idp === "jumpcloud" ? "xml" : "url");
  const [url, setUrl] = useState(provider?.metadata_url ?? "");
  const [file, setFile] = useState<MetadataFile | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [client, setClient] = useState({ id: "", secret: "" });
  // The provider's name, as the tenant's admins will see it in their console: the IdP's by default.
  const [name, setName] = useState(IDP_NAMES[idp]);
  const save = useMutation(trpc.setup.sso.save.mutationOptions({ onSuccess: onSaved }));
  const fieldError = (path: string) => fieldErrorsOf(save.error).find((e) => e.path === path)?.message;
  const oidc = IDP_GUIDES[idp].protocol === "oidc";

  function submit(event: React.FormEvent) {
    event.preventDefault();
    save.mutate({
      ...(provider ? {} : { name: name.trim() }),
      ...(source === "xml" ? (file ? { metadata_xml: file.xml } : {}) : { metadata_url: url.trim() }),
      ...(oidc && client.id ? { client_id: client.id.trim() } : {}),
      ...(oidc && client.secret ? { client_secret: client.secret } : {}),
    });
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <p className="text-sm text-slate-700">{hint}</p>
      {provider ? null : (
        <Field
          id="setup-provider-name"
          label="Provider name"
          hint={`How the tenant's admins see it in their console, up to ${MAX_PROVIDER_NAME_LENGTH} characters.`}
          error={fieldError("name")}
        >
          {(c) => (
            <Input {...c} value={name} autoComplete="off" maxLength={MAX_PROVIDER_NAME_LENGTH} onChange={(e) => setName(e.target.value)} />
          )}
        </Field>
      )}
      <MetadataSourceField
        type={type}
        provider={provider ?? undefined}
        source={source}
        onSource={setSource}
        url={url}
        onUrl={setUrl}
        file={file}
        onFile={setFile}
        errors={{ metadata_url: fieldError("metadata_url"), metadata_xml: fileError ?? fieldError("metadata_xml") }}
        onFileError={setFileError}
      />
      {oidc ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="setup-client-id" label="Client ID" error={fieldError("client_id")}>
            {(c) => <Input {...c} value={client.id} autoComplete="off" onChange={(e) => setClient({ ...client, id: e.target.value })} />}
          </Field>
          <Field
            id="setup-client-secret"
            label="Client secret"
            hint="Stored encrypted; never shown again."
            error={fieldError("client_secret")}
          >
            {(c) => (
              <Input
                {...c}
                type="password"
                value={client.secret}
                autoComplete="off"
                onChange={(e) => setClient({ ...client, secret: e.target.value })}
              />
            )}
          </Field>
        </div>
      ) : null}
      {save.error && !fieldErrorsOf(save.error).length ? <Alert tone="danger">{messageOf(save.error)}</Alert> : null}
      <Button type="submit" loading={save.isPending}>
        {provider ? "Save the new metadata" : "Save"}
      </Button>
    </form>
  );
}

/**
 * Test sign-in, in a new tab as in the console: this page stays where it is and shows the result
 * once the IdP has answered (the link's last test is asked for while it is pending).
 */
export function TestStep({ lastTest }: { lastTest: Parameters<typeof TestOutcome>[0]["result"] | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const start = useMutation(trpc.setup.sso.startTest.mutationOptions());

  function testSignIn() {
    // Opened now, while the click still counts as a user gesture (popup blockers), then pointed.
    const tab = window.open("about:blank", "_blank");
    start.mutate(undefined, {
      onSuccess: ({ url }) => {
        if (tab) tab.location.href = url;
        else window.location.assign(url);
        void queryClient.invalidateQueries({ queryKey: trpc.setup.sso.lastTest.queryKey() });
      },
      onError: () => tab?.close(),
    });
  }

  return (
    <>
      <p className="text-sm text-slate-700">
        Sign in at your identity provider as one of the people you assigned, in the tab that opens. Nobody is signed in here: this page
        shows what it sent.
      </p>
      {lastTest ? <TestOutcome result={lastTest} /> : null}
      {start.error ? <Alert tone="danger">{messageOf(start.error)}</Alert> : null}
      <Button variant={lastTest?.status === "succeeded" ? "secondary" : "primary"} loading={start.isPending} onClick={testSignIn}>
        {lastTest ? "Test again" : "Run Test sign-in"}
      </Button>
    </>
  );
}

/** Enables the provider for the tenant's verified domains the IT admin ticks. */
export function EnableStep({ provider, verified, onDone }: { provider: SsoProvider; verified: string[]; onDone: () => void }) {
  const trpc = useTRPC();
  const [domains, setDomains] = useState<string[]>(provider.domains.length ? provider.domains : verified);
  const enable = useMutation(trpc.setup.sso.enable.mutationOptions({ onSuccess: onDone }));
  if (provider.enabled) {
    return (
      <Alert tone="success" title="Single sign-on is on">
        People with an email at {provider.domains.join(", ") || "the tenant's domains"} now sign in through {provider.name}. You can close
        this page.
      </Alert>
    );
  }
  return (
    <>
      {verified.length ? (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-700">Email domains that sign in here (verified by the tenant)</legend>
          {verified.map((domain) => (
            <Checkbox
              key={domain}
              id={`setup-domain-${domain}`}
              label={domain}
              checked={domains.includes(domain)}
              onChange={(event) => setDomains(event.target.checked ? [...domains, domain] : domains.filter((d) => d !== domain))}
            />
          ))}
        </fieldset>
      ) : (
        <p className="text-sm text-slate-700">
          The tenant has no verified email domain yet: people sign in by choosing this provider, and a domain can be added later.
        </p>
      )}
      {enable.error ? <Alert tone="danger">{messageOf(enable.error)}</Alert> : null}
      <Button loading={enable.isPending} onClick={() => enable.mutate({ domains })}>
        Enable single sign-on
      </Button>
    </>
  );
}
