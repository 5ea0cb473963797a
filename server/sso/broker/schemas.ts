/**
 * The OAuth broker's REST shapes (pure zod: the console uses them too): applications, which
 * operators register, and the profile an application receives.
 */
import { z } from "zod";
import { pageOf, PageQuery } from "../../contract/page-query.ts";
import { text } from "../../contract/fields.ts";

export const MAX_APPLICATION_NAME_LENGTH = 100;
export const MAX_REDIRECT_URIS = 20;
export const MAX_REDIRECT_URI_LENGTH = 2048;

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Why `value` cannot be a redirect URI, or null: absolute, https (plain http only to a loopback
 * host or localhost, for native and development clients, RFC 8252 §7.3), no fragment (RFC 6749
 * §3.1.2), no credentials. Matched exactly when a client sends it.
 */
export function redirectUriProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URL";
  }
  if (value.includes("#")) return "must not have a fragment (#)";
  if (url.username || url.password) return "must not contain credentials";
  const loopback = LOOPBACK_HOSTS.has(url.hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname);
  if (url.protocol === "http:" && !loopback) return "must use https (http only for localhost and loopback addresses)";
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must use https";
  return null;
}

export const RedirectUri = text({ error: "must be a string" })
  .max(MAX_REDIRECT_URI_LENGTH, `must be at most ${MAX_REDIRECT_URI_LENGTH} characters`)
  .check((ctx) => {
    const problem = redirectUriProblem(ctx.value);
    if (problem) ctx.issues.push({ code: "custom", message: problem, input: ctx.value });
  });

const RedirectUris = z
  .array(RedirectUri, { error: "must be a list of URLs" })
  .min(1, "must list at least one URL")
  .max(MAX_REDIRECT_URIS, `must list at most ${MAX_REDIRECT_URIS} URLs`)
  .transform((uris) => [...new Set(uris)])
  .meta({ description: "Absolute https URLs (http only for localhost/loopback), no fragment; matched exactly." });

const Name = text({ error: "is required" })
  .trim()
  .min(1, "must not be empty")
  .max(MAX_APPLICATION_NAME_LENGTH, `must be at most ${MAX_APPLICATION_NAME_LENGTH} characters`);

export const SsoApplication = z
  .object({
    id: z.uuid(),
    name: z.string(),
    client_id: z.string().meta({ description: "Public; sent by the app to /api/sso/authorize and /api/sso/token." }),
    redirect_uris: z.array(z.string()),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "SsoApplication", description: "An app of the platform that signs people in through the OAuth 2.0 broker." });
export type SsoApplication = z.infer<typeof SsoApplication>;

export const SsoApplicationWithSecret = SsoApplication.extend({
  client_secret: z.string().meta({ description: "Shown only in this response (only its SHA-256 is stored): store it now." }),
}).meta({ id: "SsoApplicationWithSecret" });
export type SsoApplicationWithSecret = z.infer<typeof SsoApplicationWithSecret>;

export const CreateSsoApplicationInput = z
  .strictObject({ name: Name, redirect_uris: RedirectUris })
  .meta({ id: "CreateSsoApplicationRequest" });
export type CreateSsoApplicationInput = z.infer<typeof CreateSsoApplicationInput>;

const ApplicationPath = { application_id: z.string().max(100) };
export const SsoApplicationPathInput = z.object(ApplicationPath);

export const UpdateSsoApplicationInput = z
  .strictObject({ ...ApplicationPath, name: Name.optional(), redirect_uris: RedirectUris.optional() })
  .meta({ id: "UpdateSsoApplicationRequest" });
export type UpdateSsoApplicationInput = z.infer<typeof UpdateSsoApplicationInput>;

export const ListSsoApplicationsInput = PageQuery;
export const SsoApplicationPage = pageOf(SsoApplication).meta({ id: "SsoApplicationPage" });

/** What an application learns about the person (POST /api/sso/token, GET /api/sso/profile). */
export interface BrokerProfile {
  /** Stable for (provider, IdP subject): a UUID v5 of the subject in the provider's namespace. */
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  groups: string[];
  /** The person's id at the IdP, as the IdP sent it: OIDC `sub`, SAML NameID (WorkOS's `idp_id`). */
  idp_id: string;
  /** Which IdP vouched: the OIDC issuer, or the SAML Issuer / entity ID. */
  issuer: string;
  tenant_id: string;
  provider_id: string;
  provider_type: string;
  protocol: "oidc" | "saml";
  raw_attributes: Record<string, unknown>;
  /** When the person is a directory user of the tenant (Directory Sync): their id; `groups` are then their directory groups. */
  directory_user_id?: string;
}
