"use client";

import type { ProviderType } from "@/server/sso/schemas";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Select } from "../ui/select";

export interface SignInSettings {
  clientId: string;
  /** Empty: keep the stored secret (edit) or none (create). Never filled from the server. */
  clientSecret: string;
  defaultRole: "viewer" | "admin";
}

/**
 * What sign-in needs beyond the metadata: the OIDC client credentials (not for SAML-only types; the
 * secret is write-only) and the role a person gets on their first sign-in.
 */
export function SignInFields({
  type,
  value,
  secretSet,
  errors,
  onChange,
}: {
  type: ProviderType;
  value: SignInSettings;
  secretSet: boolean;
  errors: Partial<Record<"client_id" | "client_secret" | "default_role", string>>;
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
            hint={
              secretSet ? "A secret is stored. Leave empty to keep it; it is never shown again." : "Stored encrypted; never shown again."
            }
            error={errors.client_secret}
          >
            {(control) => (
              <Input
                {...control}
                type="password"
                name="client_secret"
                autoComplete="new-password"
                placeholder={secretSet ? "••••••••" : undefined}
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
        hint="People who sign in for the first time join this tenant with this role."
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
    </fieldset>
  );
}
