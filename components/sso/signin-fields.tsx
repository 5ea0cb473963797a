"use client";

import type { ProviderType } from "@/server/sso/schemas";
import type { SecretNote } from "./provider-form";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Select } from "../ui/select";

export interface SignInSettings {
  clientId: string;
  /** Empty: keep the stored secret (edit) or none (create). Never filled from the server. */
  clientSecret: string;
  defaultRole: "viewer" | "admin";
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
 * secret is write-only) and the role a person gets on their first sign-in.
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
