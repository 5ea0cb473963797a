"use client";

import type { ProviderType } from "@/server/sso/schemas";
import type { SecretNote } from "./provider-form";
import { Checkbox } from "../ui/checkbox";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Select } from "../ui/select";

export interface SignInSettings {
  clientId: string;
  /** Empty: keep the stored secret (edit) or none (create). Never filled from the server. */
  clientSecret: string;
  defaultRole: "viewer" | "admin";
  /** SAML: accept responses the IdP sends unasked (its app launcher). */
  allowIdpInitiated: boolean;
  /** Entra ID: the directories (tenant GUIDs) accepted, as typed (commas or spaces between). */
  entraTenantIds: string;
}

/** What the secret field says under it: whether one is stored, and that it must be entered again. */
function secretHint(secret: SecretNote, typed: boolean) {
  const again = (text: string) => <span className="font-medium text-amber-800">{text}</span>;
  if (secret === "dropped" && !typed)
    return again(
      "The client secret was dropped when the discovery URL changed: enter the client secret again. Sign-in is refused until you do.",
    );
  if (secret === "dropping" && !typed) return again("Changing the discovery URL drops the stored secret: enter the client secret again.");
  if (secret === "set") return "A secret is stored. Leave empty to keep it; it is never shown again.";
  return "Stored encrypted; never shown again.";
}

/**
 * What sign-in needs beyond the metadata: the OIDC client credentials (not for SAML-only types; the
 * secret is write-only), the role a person gets on their first sign-in, the Entra ID directories an
 * Entra ID provider accepts, and whether SAML responses nobody asked for are accepted.
 */
export function SignInFields({
  type,
  value,
  secret,
  errors,
  onChange,
}: {
  type: ProviderType;
  value: SignInSettings;
  /** The stored secret of the provider edited ("none" when adding one). */
  secret: SecretNote;
  errors: Partial<Record<"client_id" | "client_secret" | "default_role" | "allow_idp_initiated" | "entra_tenant_ids", string>>;
  onChange: (next: SignInSettings) => void;
}) {
  return (
    <fieldset className="space-y-4 rounded-md border border-slate-200 p-4">
      <legend className="px-1 text-sm font-medium text-slate-900">Sign-in</legend>
      {type !== "saml" ? (
        <>
          <Field
            id="sso-client_id"
            label="Client ID"
            hint="From the OIDC app you registered at the IdP (not needed for SAML metadata)."
            error={errors.client_id}
          >
            {(control) => (
              <Input
                {...control}
                name="client_id"
                autoComplete="off"
                spellCheck={false}
                value={value.clientId}
                onChange={(e) => onChange({ ...value, clientId: e.target.value })}
              />
            )}
          </Field>
          <Field
            id="sso-client_secret"
            label="Client secret"
            hint={secretHint(secret, value.clientSecret !== "")}
            error={errors.client_secret}
          >
            {(control) => (
              <Input
                {...control}
                type="password"
                name="client_secret"
                autoComplete="new-password"
                placeholder={secret === "set" ? "••••••••" : undefined}
                value={value.clientSecret}
                onChange={(e) => onChange({ ...value, clientSecret: e.target.value })}
              />
            )}
          </Field>
        </>
      ) : null}
      <Field
        id="sso-default_role"
        label="Role on first sign-in"
        hint="People who join this tenant through SSO (a domain with auto-join on) get this role."
        error={errors.default_role}
      >
        {(control) => (
          <Select
            {...control}
            name="default_role"
            value={value.defaultRole}
            onChange={(e) => onChange({ ...value, defaultRole: e.target.value as SignInSettings["defaultRole"] })}
          >
            <option value="viewer">Viewer</option>
            <option value="admin">Admin</option>
          </Select>
        )}
      </Field>
      {type === "azure_ad" ? (
        <Field
          id="sso-entra_tenant_ids"
          label="Entra ID directories"
          hint="Tenant IDs (GUIDs) allowed to sign in, separated by commas or spaces. With a multi-tenant URL (common, organizations) list yours, or any Entra ID directory can answer. Optional."
          error={errors.entra_tenant_ids}
        >
          {(control) => (
            <Input
              {...control}
              name="entra_tenant_ids"
              autoComplete="off"
              spellCheck={false}
              value={value.entraTenantIds}
              onChange={(e) => onChange({ ...value, entraTenantIds: e.target.value })}
            />
          )}
        </Field>
      ) : null}
      {type !== "oidc" ? (
        <Checkbox
          id="sso-allow_idp_initiated"
          label="Accept IdP-initiated sign-in (SAML)"
          description="Lets people start from the IdP's app launcher. Responses nobody asked for are then accepted, which a page elsewhere can abuse (login CSRF): leave it off unless your people need it."
          checked={value.allowIdpInitiated}
          onChange={(e) => onChange({ ...value, allowIdpInitiated: e.target.checked })}
        />
      ) : null}
    </fieldset>
  );
}
