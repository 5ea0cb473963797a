/**
 * The create/edit form's values, the few checks worth making before a round trip, and where the
 * server's field errors belong. The server stays the authority: its URL policy
 * (server/outbound/url-policy.ts) reads the server's environment, so the client only catches what
 * is plainly missing or malformed, with the limits of server/sso/schemas.ts, and shows the
 * server's words for the rest.
 */
import { MAX_PROVIDER_NAME_LENGTH, type MetadataSource, type ProviderType, type SsoProvider } from "@/server/sso/schemas";
import { serverErrors, type FieldErrors } from "../form-errors";
import { fieldErrorsOf } from "../trpc";

export interface ProviderFormValues {
  provider_type: ProviderType;
  name: string;
  /** Where the metadata comes from: the URL typed, or the file picked (or, editing, the one stored). */
  metadata_source?: MetadataSource;
  metadata_url: string;
  /** The picked file's text; undefined when none was picked. */
  metadata_xml?: string;
  domains: string[];
  enabled: boolean;
}

export type FormField =
  | "provider_type"
  | "name"
  | "metadata_url"
  | "metadata_xml"
  | "domains"
  | "client_id"
  | "client_secret"
  | "default_role"
  | "entra_tenant_ids"
  | "allow_idp_initiated";

export interface ServerFormErrors {
  /** Messages by FormField. */
  fields: FieldErrors;
  /** Positions of the domains the server refused (paths `domains.N`). */
  badDomains: number[];
}

/** The fields in form order, with the id of their control (for focusFirstError). */
export const FIELD_IDS: Array<[FormField, string]> = [
  ["provider_type", "sso-provider_type"],
  ["name", "sso-name"],
  ["metadata_url", "sso-metadata_url"],
  ["metadata_xml", "sso-metadata_xml"],
  ["domains", "sso-domains"],
  ["client_id", "sso-client_id"],
  ["client_secret", "sso-client_secret"],
  ["default_role", "sso-default_role"],
  ["entra_tenant_ids", "sso-entra_tenant_ids"],
  ["allow_idp_initiated", "sso-allow_idp_initiated"],
];

/** The Entra ID directory ids typed: commas, semicolons and whitespace separate; lower-cased as stored. */
export function splitTenantIds(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((id) => id.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

/**
 * The stored OIDC client secret as the form speaks of it: `dropping` when the URL typed is not the
 * saved one (saving drops the secret unless a new one is entered), `dropped` when an earlier URL
 * change dropped it and sign-in waits for a new one.
 */
export type SecretNote = "none" | "set" | "dropping" | "dropped";

export function secretNoteOf(provider: SsoProvider | undefined, url: string): SecretNote {
  if (!provider) return "none";
  if (provider.client_secret_dropped) return "dropped";
  if (!provider.client_secret_set) return "none";
  return url.trim() !== provider.metadata_url ? "dropping" : "set";
}

/** Splits what was typed or pasted into domains: commas, semicolons and whitespace separate. */
export function splitDomains(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
}

/** Adds domains to a list, skipping the ones already in it. */
export function addDomains(list: string[], more: string[]): string[] {
  const next = [...list];
  for (const domain of more) if (!next.includes(domain)) next.push(domain);
  return next;
}

function isWebUrl(value: string) {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

/**
 * Missing or plainly malformed values, in the order of the form's fields. `storedFile`: the
 * provider edited already has an uploaded document, so a file need not be picked again.
 */
export function checkForm(values: ProviderFormValues, urlLabel: string, storedFile = false): FieldErrors {
  const fields: FieldErrors = {};
  const name = values.name.trim();
  if (!name) fields.name = "Name must not be empty";
  else if (name.length > MAX_PROVIDER_NAME_LENGTH) fields.name = `Name must be at most ${MAX_PROVIDER_NAME_LENGTH} characters`;
  if (values.metadata_source === "xml") {
    if (values.metadata_xml === undefined && !storedFile) fields.metadata_xml = "Choose the IdP's metadata file (.xml)";
    return fields;
  }
  const url = values.metadata_url.trim();
  if (!url) fields.metadata_url = `${urlLabel} must not be empty`;
  else if (!isWebUrl(url)) fields.metadata_url = `${urlLabel} must be an absolute https URL`;
  return fields;
}

/**
 * The server's `errors: [{path, message}]` on the form's fields, where "domains.1" names the
 * second domain; null when none of them is about a field the form shows.
 */
export function serverFieldErrors(error: unknown, domains: string[], urlLabel: string): ServerFormErrors | null {
  const fields = serverErrors(error, {
    provider_type: "Type",
    name: "Name",
    metadata_url: urlLabel,
    metadata_xml: "Metadata file",
    domains: "Domains",
    client_id: "Client ID",
    client_secret: "Client secret",
    default_role: "Role on first sign-in",
    entra_tenant_ids: "Entra ID directories",
    allow_idp_initiated: "IdP-initiated sign-in",
  });
  const badDomains: number[] = [];
  for (const { path, message } of fieldErrorsOf(error)) {
    if (/^entra_tenant_ids\.\d+$/.test(path)) fields.entra_tenant_ids ??= `Entra ID directories: ${message}`;
    const index = Number(/^domains\.(\d+)$/.exec(path)?.[1] ?? NaN);
    const domain = domains[index];
    if (domain === undefined) continue;
    badDomains.push(index);
    fields.domains ??= `${domain} ${message}`;
  }
  return Object.keys(fields).length ? { fields, badDomains } : null;
}
