import { z } from "zod";
import { pageOf, PageQuery } from "../contract/page-query.ts";
import { JsonBoolean, text } from "../contract/fields.ts";
import { OutboundUrl } from "../outbound/schemas.ts";

export const MAX_PROVIDER_NAME_LENGTH = 100;
export const MAX_DOMAINS = 100;

export const PROVIDER_TYPES = ["saml", "oidc", "google_workspace", "azure_ad"] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

export const ProviderTypeSchema = z.enum(PROVIDER_TYPES, { error: `must be one of ${PROVIDER_TYPES.join(", ")}` }).meta({
  description: "`saml`, `oidc`, `google_workspace` (Google Workspace) or `azure_ad` (Microsoft Entra ID; the value keeps its old name).",
});

export const ProviderName = text({ error: "is required and must be a string" })
  .trim()
  .min(1, "must not be empty")
  .max(MAX_PROVIDER_NAME_LENGTH, `must be at most ${MAX_PROVIDER_NAME_LENGTH} characters`);

/** The shape only: where it may point is server/outbound/url-policy.ts, applied by the service. */
export const MetadataUrl = OutboundUrl;

/** The cap of a metadata document, fetched or uploaded (UTF-8 bytes). */
export const MAX_METADATA_BYTES = 1024 * 1024;
export const METADATA_SOURCES = ["url", "xml"] as const;
export type MetadataSource = (typeof METADATA_SOURCES)[number];

const utf8Bytes = (value: string) => new TextEncoder().encode(value).byteLength;

/** The shape only (a string of at most 1 MiB): what it says is read by the service (./metadata.ts). */
export const MetadataXml = z
  .string({ error: "must be a string (the IdP's SAML metadata document)" })
  .min(1, "must not be empty")
  .refine((xml) => xml.length <= MAX_METADATA_BYTES && utf8Bytes(xml) <= MAX_METADATA_BYTES, "must be at most 1 MiB")
  .meta({
    description:
      "SAML types only: the IdP's metadata document itself (XML, at most 1 MiB, no DTD), instead of `metadata_url`, " +
      "for an IdP behind a firewall or one that hands out a file (Google Workspace). Read when it is given: a document that is " +
      "not usable IdP metadata is a 400 naming `metadata_xml`. Write-only: the provider shows `metadata_source: xml` and what was read.",
  });

const DOMAIN = /^(?=.{1,253}$)(?!-)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export const Domains = z
  .array(
    z
      .string({ error: "must be a string" })
      .trim()
      .toLowerCase()
      .refine((d) => DOMAIN.test(d), "must be a domain name such as example.com"),
    { error: "must be an array of domain names" },
  )
  .max(MAX_DOMAINS, `at most ${MAX_DOMAINS} domains`)
  .refine((list) => new Set(list).size === list.length, "must not repeat a domain");

export const MAX_ENTRA_TENANTS = 100;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ENTRA_TENANTS_DESCRIPTION =
  "azure_ad only: the Entra ID directories (tenant ids) sign-ins may come from, checked against the id_token's `tid`. " +
  "Empty: any directory, as the multi-tenant issuer (common, organizations) allows; then only emails Entra ID marks verified sign in.";

export const EntraTenantIds = z
  .array(
    z
      .string({ error: "must be a string" })
      .trim()
      .toLowerCase()
      .refine((id) => GUID.test(id), "must be an Entra ID tenant id (a GUID such as 72f988bf-86f1-41af-91ab-2d7cd011db47)"),
    { error: "must be an array of Entra ID tenant ids" },
  )
  .max(MAX_ENTRA_TENANTS, `at most ${MAX_ENTRA_TENANTS} tenant ids`)
  .refine((list) => new Set(list).size === list.length, "must not repeat a tenant id")
  .meta({ description: ENTRA_TENANTS_DESCRIPTION });

const metadata = z
  .object({
    status: z.enum(["pending", "valid", "invalid", "unreachable"]),
    checked_at: z.iso.datetime().nullable(),
    error: z.string().nullable(),
    entity_id: z.string().nullable().meta({ description: "SAML entityID." }),
    issuer: z.string().nullable().meta({ description: "OpenID issuer." }),
    sso_url: z.string().nullable().meta({ description: "SAML SingleSignOnService URL, or the OpenID authorization endpoint." }),
    token_endpoint: z.string().nullable(),
    jwks_uri: z.string().nullable(),
    certificate_expires_at: z.iso.datetime().nullable().meta({ description: "The earliest notAfter of the SAML signing certificates." }),
  })
  .meta({ id: "SsoMetadata", description: "What the last metadata check found. It informs; it never blocks." });

export const SSO_PROTOCOLS = ["saml", "oidc"] as const;
export const DEFAULT_ROLES = ["viewer", "admin"] as const;

const samlSp = z.object({ entity_id: z.string(), acs_url: z.string(), metadata_url: z.string() }).meta({
  id: "SamlServiceProvider",
  description: "What the IdP admin pastes into the SAML app: our entity ID, ACS URL, and our metadata (XML, no auth).",
});
const oidcSp = z
  .object({ redirect_uri: z.string() })
  .meta({ id: "OidcRelyingParty", description: "What the IdP admin registers for the OIDC client: our redirect URI." });

export const SsoProvider = z
  .object({
    id: z.uuid(),
    tenant_id: z.uuid(),
    provider_type: ProviderTypeSchema,
    protocol: z.enum(SSO_PROTOCOLS).meta({
      description:
        "Fixed by `saml`/`oidc`; for `azure_ad` and `google_workspace`, read from the metadata document (XML: saml, JSON: oidc).",
    }),
    name: z.string(),
    metadata_url: z.string().nullable().meta({ description: "Where the metadata is fetched; null when it was uploaded (`metadata_xml`)." }),
    metadata_source: z.enum(METADATA_SOURCES).meta({
      description:
        "`url`: fetched from `metadata_url` and checked after each change; `xml`: an uploaded document (`metadata_xml`, not returned), " +
        "read when it was given; `metadata` shows what it says.",
    }),
    enabled: z.boolean(),
    domains: z.array(z.string()),
    sp: z.union([samlSp, oidcSp]).meta({ description: "Our side of this provider, by protocol." }),
    client_id: z.string().nullable().meta({ description: "OIDC client ID (null for SAML or when not set)." }),
    client_secret_set: z.boolean().meta({ description: "Whether an OIDC client secret is stored. The secret itself is never returned." }),
    client_secret_dropped: z.boolean().meta({
      description:
        "The stored client secret was dropped because `metadata_url` changed (the secret must not follow the provider to another IdP): " +
        "sign-in and Test sign-in are refused (`not_configured`) until a `client_secret` is entered again, or `client_secret: null` says the client has none.",
    }),
    default_role: z
      .enum(DEFAULT_ROLES)
      .meta({ description: "Tenant role given to a person on their first sign-in through this provider." }),
    allow_idp_initiated: z
      .boolean()
      .meta({ description: "Accept SAML responses we did not request (IdP-initiated sign-in). Off by default." }),
    entra_tenant_ids: z.array(z.string()).meta({ description: ENTRA_TENANTS_DESCRIPTION }),
    metadata,
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "SsoProvider" });
export type SsoProvider = z.infer<typeof SsoProvider>;

/**
 * The fields that decide who is trusted or where sign-in data flows (the IdP and its token
 * endpoint, whose email domains it vouches for, which client it is, what role a newcomer gets,
 * unsolicited responses, which Entra ID directories): changing one of them needs a fresh step-up, as
 * disabling does. Giving a field its current value is not a change.
 */
export const STEP_UP_FIELDS = [
  "metadata_url",
  "metadata_xml",
  "domains",
  "client_id",
  "default_role",
  "allow_idp_initiated",
  "entra_tenant_ids",
] as const;

const TenantPath = { tenant_id: z.string().max(100) };
const ProviderPath = { provider_id: z.string().max(100) };

export const CLIENT_ID_MAX = 255;
export const CLIENT_SECRET_MAX = 1024;

const ClientId = z
  .string({ error: "must be a string" })
  .trim()
  .min(1, "must not be empty")
  .max(CLIENT_ID_MAX, `must be at most ${CLIENT_ID_MAX} characters`)
  .meta({ description: "OIDC client ID issued by the IdP." });
const ClientSecret = z
  .string({ error: "must be a string" })
  .min(1, "must not be empty")
  .max(CLIENT_SECRET_MAX, `must be at most ${CLIENT_SECRET_MAX} characters`)
  .meta({ description: "OIDC client secret. Write-only: stored encrypted, never returned (see `client_secret_set`)." });
const DefaultRole = z.enum(DEFAULT_ROLES, { error: "must be viewer or admin" });

const createFields = {
  provider_type: ProviderTypeSchema,
  name: ProviderName,
  metadata_url: MetadataUrl.optional().meta({ description: "The IdP's metadata URL. Exactly one of `metadata_url` and `metadata_xml`." }),
  metadata_xml: MetadataXml.optional(),
  enabled: JsonBoolean.optional(),
  domains: Domains.optional(),
  client_id: ClientId.optional(),
  client_secret: ClientSecret.optional(),
  default_role: DefaultRole.optional(),
  allow_idp_initiated: JsonBoolean.optional(),
  entra_tenant_ids: EntraTenantIds.optional(),
};
const updateFields = {
  enabled: JsonBoolean.optional(),
  name: ProviderName.optional(),
  metadata_url: MetadataUrl.optional().meta({ description: "A new metadata URL; replaces an uploaded document." }),
  metadata_xml: MetadataXml.optional(),
  domains: Domains.optional(),
  client_id: ClientId.nullable().optional().meta({ description: "OIDC client ID; null removes it." }),
  client_secret: ClientSecret.nullable().optional().meta({ description: "Write-only; null removes it." }),
  default_role: DefaultRole.optional(),
  allow_idp_initiated: JsonBoolean.optional(),
  entra_tenant_ids: EntraTenantIds.optional(),
};

export const CreateSsoInput = z.strictObject(createFields).meta({ id: "CreateSsoProviderRequest" });
export const CreateSsoInTenantInput = z.strictObject({ ...TenantPath, ...createFields });
export type CreateSsoInput = z.infer<typeof CreateSsoInput>;

export const UpdateSsoInput = z.strictObject({ ...ProviderPath, ...updateFields }).meta({ id: "UpdateSsoProviderRequest" });
export const UpdateSsoInTenantInput = z.strictObject({ ...TenantPath, ...ProviderPath, ...updateFields });
export type UpdateSsoInput = z.infer<typeof UpdateSsoInput>;

export const ListSsoInput = PageQuery;
export const ListSsoInTenantInput = PageQuery.extend(TenantPath);
export const SsoPage = pageOf(SsoProvider).meta({ id: "SsoProviderPage" });

export const ProviderPathInput = z.object(ProviderPath);
export const ProviderInTenantPathInput = z.object({ ...TenantPath, ...ProviderPath });
