"use client";

import { useState, type FormEvent } from "react";
import Link from "next/link";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { MAX_PROVIDER_NAME_LENGTH, type MetadataSource, type ProviderType, type SsoProvider } from "@/server/sso/schemas";
import { stepUpIfAsked } from "../auth/with-step-up";
import { consoleUrl } from "../console/urls";
import { useFormErrors } from "../form-errors";
import { useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Checkbox } from "../ui/checkbox";
import { Dialog, FormActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Select } from "../ui/select";
import { DomainsInput } from "./domains-input";
import { canUpload, MetadataSourceField, type MetadataFile } from "./metadata-source-field";
import {
  addDomains,
  checkForm,
  FIELD_IDS,
  secretNoteOf,
  serverFieldErrors,
  splitDomains,
  splitTenantIds,
  type FormField,
} from "./provider-form";
import { SignInFields, type SignInSettings } from "./signin-fields";
import { PROVIDER_TYPE_INFO, PROVIDER_TYPE_OPTIONS, ProviderTypeIcon } from "./provider-types";

interface ProviderDialogProps {
  tenantId: string;
  /** The provider to edit; none to add a new one. */
  provider?: SsoProvider;
  /** Asks for a step-up: changing where sign-in trust or data goes (URL, domains, client ID, role) needs one. */
  ensureSteppedUp: (action: string) => Promise<boolean>;
  onClose: () => void;
  onSaved: (provider: SsoProvider, created: boolean) => void;
}

/**
 * Adds or edits an SSO provider. The URL field follows the type: SAML metadata for SAML, an
 * OpenID discovery document for the rest; every type but plain OIDC may instead upload a SAML
 * metadata file (./metadata-source-field.tsx). The type is fixed once created. Saving an edit that
 * changes what the server guards asks for a step-up when the server wants one, then saves again.
 */
export function ProviderDialog({ tenantId, provider, ensureSteppedUp, onClose, onSaved }: ProviderDialogProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [type, setType] = useState<ProviderType>(provider?.provider_type ?? "saml");
  const [name, setName] = useState(provider?.name ?? "");
  const [url, setUrl] = useState(provider?.metadata_url ?? "");
  const [chosenSource, setSource] = useState<MetadataSource>(provider?.metadata_source ?? "url");
  const [file, setFile] = useState<MetadataFile | null>(null);
  const [domains, setDomains] = useState<string[]>(provider?.domains ?? []);
  const [draft, setDraft] = useState("");
  // Off until it is known to work: an enabled provider routes only verified domains, and a
  // provider nobody has tested would take over those people's sign-in at once.
  const [enabled, setEnabled] = useState(false);
  const { errors, formError, setFormError, show, clear, fail } = useFormErrors(FIELD_IDS);
  /** Positions of the domains the server refused, shown as such while their error stands. */
  const [badDomains, setBadDomains] = useState<number[]>([]);
  const [signIn, setSignIn] = useState<SignInSettings>({
    clientId: provider?.client_id ?? "",
    clientSecret: "",
    defaultRole: provider?.default_role ?? "viewer",
    allowIdpInitiated: provider?.allow_idp_initiated ?? false,
    entraTenantIds: provider?.entra_tenant_ids.join(", ") ?? "",
  });

  const invalidate = () => queryClient.invalidateQueries(trpc.tenantSso.pathFilter());
  const create = useMutation(trpc.tenantSso.create.mutationOptions({ onSuccess: invalidate }));
  const update = useMutation(trpc.tenantSso.update.mutationOptions({ onSuccess: invalidate }));
  const pending = create.isPending || update.isPending;
  const info = PROVIDER_TYPE_INFO[type];
  const source: MetadataSource = canUpload(type) ? chosenSource : "url";
  const storedFile = provider?.metadata_source === "xml";

  function clearError(field: FormField) {
    if (field === "domains" && errors.domains) setBadDomains([]);
    clear(field);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const allDomains = addDomains(domains, splitDomains(draft));
    setDomains(allDomains);
    setDraft("");
    const values = {
      provider_type: type,
      name: name.trim(),
      metadata_source: source,
      metadata_url: url.trim(),
      metadata_xml: file?.xml,
      domains: allDomains,
      enabled,
    };
    setBadDomains([]);
    if (show(checkForm(values, info.urlLabel, storedFile))) return;
    // The source sent: the URL, a picked file, or (editing a provider read from a file) nothing.
    const metadata = source === "url" ? { metadata_url: values.metadata_url } : file ? { metadata_xml: file.xml } : {};

    const done = {
      onSuccess: (saved: SsoProvider) => onSaved(saved, !provider),
      onError: (error: unknown) => {
        const onFields = serverFieldErrors(error, allDomains, info.urlLabel);
        if (onFields) setBadDomains(onFields.badDomains);
        fail(error, onFields?.fields ?? null);
      },
    };
    const oidc = type !== "saml" && source === "url";
    const clientId = signIn.clientId.trim();
    const settings = {
      default_role: signIn.defaultRole,
      ...(type !== "oidc" ? { allow_idp_initiated: signIn.allowIdpInitiated } : {}),
      ...(type === "azure_ad" ? { entra_tenant_ids: splitTenantIds(signIn.entraTenantIds) } : {}),
      ...(oidc && clientId ? { client_id: clientId } : {}),
      ...(oidc && signIn.clientSecret ? { client_secret: signIn.clientSecret } : {}),
    };
    if (provider) {
      const input = {
        tenant_id: tenantId,
        provider_id: provider.id,
        name: values.name,
        ...metadata,
        domains: values.domains,
        ...settings,
        ...(oidc && !clientId && provider.client_id ? { client_id: null } : {}),
      };
      let saved: SsoProvider | undefined;
      stepUpIfAsked(ensureSteppedUp, `save changes to ${provider.name}`, async () => {
        saved = await update.mutateAsync(input);
      }).then((stepped) => {
        if (stepped && saved) done.onSuccess(saved);
        else setFormError("Not saved: changing the metadata, domains, client ID or role needs you to confirm it's you.");
      }, done.onError);
    } else {
      const { provider_type, name: newName, domains: newDomains } = values;
      create.mutate({ tenant_id: tenantId, provider_type, name: newName, domains: newDomains, enabled, ...metadata, ...settings }, done);
    }
  }

  return (
    <Dialog
      title={provider ? `Edit ${provider.name}` : "Add an SSO provider"}
      description={
        provider
          ? "New metadata is checked again. Changing the metadata, domains, client ID or role asks you to confirm it's you."
          : "People whose email domain is listed sign in through this identity provider."
      }
      size="md"
      onClose={onClose}
      onSubmit={submit}
      busy={pending}
      footer={<FormActions onCancel={onClose} pending={pending} submitLabel={provider ? "Save changes" : "Add provider"} />}
    >
      <div className="space-y-4">
        {provider ? (
          <div className="flex items-center gap-3 rounded-md bg-slate-50 px-3 py-2 ring-1 ring-slate-200 ring-inset">
            <ProviderTypeIcon type={type} className="size-7" />
            <p className="text-sm text-slate-700">
              <span className="font-medium text-slate-900">{info.label}</span>
              <span className="text-slate-600"> · the type cannot be changed</span>
            </p>
          </div>
        ) : (
          <Field id="sso-provider_type" label="Type" error={errors.provider_type}>
            {(control) => (
              <Select {...control} name="provider_type" value={type} onChange={(event) => setType(event.target.value as ProviderType)}>
                {PROVIDER_TYPE_OPTIONS.map((option) => (
                  <option key={option} value={option}>
                    {PROVIDER_TYPE_INFO[option].label}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        )}

        <Field id="sso-name" label="Name" hint={`Shown to your team, up to ${MAX_PROVIDER_NAME_LENGTH} characters.`} error={errors.name}>
          {(control) => (
            <Input
              {...control}
              name="name"
              autoComplete="off"
              value={name}
              onChange={(event) => {
                setName(event.target.value);
                clearError("name");
              }}
            />
          )}
        </Field>

        <MetadataSourceField
          type={type}
          provider={provider}
          source={source}
          onSource={(next) => {
            setSource(next);
            clearError("metadata_url");
            clearError("metadata_xml");
          }}
          url={url}
          onUrl={(next) => {
            setUrl(next);
            clearError("metadata_url");
          }}
          file={file}
          onFile={(next) => {
            setFile(next);
            clearError("metadata_xml");
          }}
          errors={errors}
          onFileError={(message) => (message ? show({ ...errors, metadata_xml: message }) : clearError("metadata_xml"))}
        />

        <Field
          id="sso-domains"
          label="Domains"
          hint="Email domains that sign in here, separated by commas or spaces. Optional. An enabled provider takes only domains this tenant has verified (Domains page)."
          error={errors.domains}
        >
          {(control) => (
            <DomainsInput
              control={control}
              domains={domains}
              draft={draft}
              invalid={badDomains}
              onChange={(nextDomains, nextDraft) => {
                setDomains(nextDomains);
                setDraft(nextDraft);
                clearError("domains");
              }}
            />
          )}
        </Field>

        <SignInFields
          type={source === "xml" ? "saml" : type}
          value={signIn}
          secret={secretNoteOf(provider, source === "xml" ? "" : url)}
          errors={errors}
          onChange={setSignIn}
        />

        {provider ? null : (
          <Checkbox
            id="sso-enabled"
            label="Enabled"
            description={
              <>
                Leave it off for now: an enabled provider takes only verified domains. Verify the company&apos;s domain on the{" "}
                <Link href={consoleUrl.domains(tenantId)} className="font-medium text-indigo-700 underline hover:text-indigo-900">
                  Domains page
                </Link>
                , run Test sign-in from the provider&apos;s details, then turn it on in the list.
              </>
            }
            checked={enabled}
            onChange={(event) => setEnabled(event.target.checked)}
          />
        )}

        {formError ? <Alert tone="danger">{formError}</Alert> : null}
      </div>
    </Dialog>
  );
}
