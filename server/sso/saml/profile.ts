/**
 * From a verified assertion to the sign-in profile. IdPs name the same attribute differently
 * (Entra ID and AD FS use WS-Federation claim URIs, Shibboleth OIDs, Okta and Google whatever the
 * admin typed, usually `email`/`firstName`), so each field is the first of its known names,
 * compared case-insensitively.
 */
import type { Profile } from "@node-saml/node-saml";
import { NAMEID_EMAIL } from "./config.ts";
import { SsoRefused } from "../signin/protocol.ts";

/** The fields of SsoProfile (server/sso/signin/protocol.ts) a SAML assertion yields. */
export interface SamlProfile {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  groups: string[];
  issuer: string;
  raw_attributes: Record<string, unknown>;
}

const CLAIMS = "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/";

const EMAIL = [
  "email",
  "mail",
  "emailaddress",
  "email_address",
  "user.email",
  `${CLAIMS}emailaddress`,
  "urn:oid:0.9.2342.19200300.100.1.3",
  "urn:oid:1.2.840.113549.1.9.1",
];
const FIRST_NAME = ["firstname", "first_name", "givenname", "given_name", "user.firstname", `${CLAIMS}givenname`, "urn:oid:2.5.4.42"];
const LAST_NAME = [
  "lastname",
  "last_name",
  "surname",
  "sn",
  "familyname",
  "family_name",
  "user.lastname",
  `${CLAIMS}surname`,
  "urn:oid:2.5.4.4",
];
const GROUPS = [
  "groups",
  "group",
  "memberof",
  "ismemberof",
  "roles",
  "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups",
  "http://schemas.xmlsoap.org/claims/group",
  "urn:oid:1.3.6.1.4.1.5923.1.5.1.1",
  "urn:oid:1.2.840.113556.1.2.102",
];

const LOOKS_LIKE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function values(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list
    .map((v) => (typeof v === "string" ? v : v && typeof v === "object" && "_" in v ? String((v as { _: unknown })._) : undefined))
    .filter((v): v is string => typeof v === "string" && v.trim() !== "")
    .map((v) => v.trim());
}

function lookup(attributes: Record<string, unknown>, names: string[]): string[] {
  const byName = new Map(Object.entries(attributes).map(([k, v]) => [k.toLowerCase(), v]));
  for (const name of names) {
    const found = values(byName.get(name));
    if (found.length) return found;
  }
  return [];
}

export function samlProfile(profile: Profile): SamlProfile {
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const nameId = profile.nameID?.trim();
  if (!nameId) throw new SsoRefused("invalid_response", "The assertion has no NameID");
  const fromAttributes = lookup(attributes, EMAIL).find((v) => LOOKS_LIKE_EMAIL.test(v));
  const email =
    profile.nameIDFormat === NAMEID_EMAIL && LOOKS_LIKE_EMAIL.test(nameId)
      ? nameId
      : (fromAttributes ?? (LOOKS_LIKE_EMAIL.test(nameId) ? nameId : undefined));
  if (!email) throw new SsoRefused("no_email", "The assertion has no email address (an email NameID or an email attribute)");
  return {
    id: nameId,
    email: email.toLowerCase(),
    first_name: lookup(attributes, FIRST_NAME)[0] ?? null,
    last_name: lookup(attributes, LAST_NAME)[0] ?? null,
    groups: [...new Set(lookup(attributes, GROUPS))],
    issuer: profile.issuer,
    raw_attributes: attributes,
  };
}
