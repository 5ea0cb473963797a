import { z } from "zod";
import { pageOf, PageQuery } from "../contract/page-query.ts";
import { SETUP_INTENTS } from "../auth/principal.ts";
import { CreateSsoInput, UpdateSsoInput } from "../sso/schemas.ts";
import { DomainName } from "../domains/schemas.ts";
import { DIRECTORY_PROVIDERS } from "../directories/schemas.ts";

export { SETUP_INTENTS };

/** A link must be opened within its lifetime: 7 days unless `expires_in` says otherwise. */
export const DEFAULT_EXPIRES_IN_S = 7 * 24 * 60 * 60;
export const MIN_EXPIRES_IN_S = 5 * 60;
export const MAX_EXPIRES_IN_S = 30 * 24 * 60 * 60;
/** A session started from a link lasts this long, however long the link has left. */
export const SESSION_TTL_S = 4 * 60 * 60;

/** The cookie of a setup session (the browser that opened a link). */
export const SETUP_COOKIE = "cp_setup";

export const SETUP_LINK_STATES = ["active", "expired", "revoked"] as const;

const TenantPath = { tenant_id: z.string().max(100) };
const LinkPath = { ...TenantPath, setup_link_id: z.string().max(100) };

const intentDescription =
  "`sso`: configure, test and enable an SSO provider; `directory_sync`: create a directory and connect the IdP's SCIM client; " +
  "`domain_verification`: add a domain and publish its DNS record.";

export const SetupLink = z
  .object({
    id: z.uuid(),
    tenant_id: z.uuid(),
    intent: z.enum(SETUP_INTENTS).meta({ description: intentDescription }),
    state: z.enum(SETUP_LINK_STATES).meta({ description: "`active` until it expires or is revoked (DELETE)." }),
    sso_provider_id: z
      .uuid()
      .nullable()
      .meta({ description: "`sso`: the provider the link works on (given for an existing one; set once the IT admin picks their IdP)." }),
    directory_id: z.uuid().nullable().meta({
      description: "`directory_sync`: the directory the link works on (given for an existing one; set once the IT admin creates it).",
    }),
    expires_at: z.iso.datetime().meta({ description: "The link must be opened before this; a session started from it lasts 4 hours." }),
    created_by: z.uuid().nullable().meta({ description: "The user who made the link (named on everything done through it)." }),
    created_by_email: z.string().nullable(),
    last_opened_at: z.iso.datetime().nullable(),
    revoked_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "SetupLink" });
export type SetupLink = z.infer<typeof SetupLink>;

export const CreatedSetupLink = SetupLink.extend({
  url: z.string().meta({ description: "The link to hand to the IT admin. Shown once: only its hash is kept." }),
}).meta({ id: "CreatedSetupLink" });
export type CreatedSetupLink = z.infer<typeof CreatedSetupLink>;

export const ListSetupLinksInput = PageQuery.extend(TenantPath);
export const SetupLinkPage = pageOf(SetupLink).meta({ id: "SetupLinkPage" });
export const SetupLinkPathInput = z.object(LinkPath);

export const RevokeSetupLinkInput = z.object({
  ...LinkPath,
  rotate_directory_token: z.enum(["true", "false"], { error: "must be true or false" }).optional().meta({
    description:
      "`true`: a `directory_sync` link's directory gets a new SCIM token in the same step (the IT admin who held the link saw the old one); needs a fresh step-up. The new token is in `directory_token`, shown once.",
  }),
});

/** What revoking a link did, and what became of the directory a `directory_sync` link worked on. */
export const SetupLinkRevocation = z
  .object({
    setup_link: SetupLink,
    directory: z
      .object({
        id: z.uuid(),
        name: z.string(),
        token_hint: z.string(),
        token_rotated: z.boolean().meta({ description: "Whether its token was replaced in this step (`rotate_directory_token=true`)." }),
        message: z.string().meta({ description: "What becomes of the directory, in a sentence for people." }),
      })
      .nullable()
      .meta({
        description:
          "`directory_sync` links that created or worked on a directory: the directory and its SCIM token live on (revoking the link ends the IT admin's setup sessions, not the IdP's sync). Null for other links.",
      }),
    directory_token: z
      .string()
      .nullable()
      .meta({ description: "The directory's new SCIM token when `rotate_directory_token=true`: shown once. Null otherwise." }),
  })
  .meta({ id: "SetupLinkRevocation" });
export type SetupLinkRevocation = z.infer<typeof SetupLinkRevocation>;

export const CreateSetupLinkInput = z
  .strictObject({
    ...TenantPath,
    intent: z.enum(SETUP_INTENTS, { error: "must be sso, directory_sync or domain_verification" }).meta({ description: intentDescription }),
    expires_in: z
      .number({ error: "must be a number of seconds" })
      .int("must be a whole number of seconds")
      .min(MIN_EXPIRES_IN_S, `must be at least ${MIN_EXPIRES_IN_S} seconds`)
      .max(MAX_EXPIRES_IN_S, `must be at most ${MAX_EXPIRES_IN_S} seconds (30 days)`)
      .optional()
      .meta({ description: "Seconds until the link can no longer be opened; default 604800 (7 days)." }),
    sso_provider_id: z
      .string({ error: "must be a string" })
      .max(100)
      .optional()
      .meta({ description: "`sso` only: an existing provider of the tenant; the link opens at its certificate (metadata) update." }),
    directory_id: z.string({ error: "must be a string" }).max(100).optional().meta({
      description:
        "`directory_sync` only: an existing directory of the tenant; the link opens at its connection step (where a new token can be made).",
    }),
  })
  .superRefine((input, ctx) => {
    if (input.sso_provider_id !== undefined && input.intent !== "sso")
      ctx.addIssue({ code: "custom", path: ["sso_provider_id"], message: "is only for intent sso" });
    if (input.directory_id !== undefined && input.intent !== "directory_sync")
      ctx.addIssue({ code: "custom", path: ["directory_id"], message: "is only for intent directory_sync" });
  })
  .meta({ id: "CreateSetupLinkRequest" });
export type CreateSetupLinkInput = z.infer<typeof CreateSetupLinkInput>;

/** The IdPs the guided SSO setup knows, each with its own steps (components/setup/idp-guides.tsx). */
export const SETUP_IDPS = [
  "okta",
  "entra_id",
  "google_workspace",
  "onelogin",
  "jumpcloud",
  "adfs",
  "generic_saml",
  "generic_oidc",
] as const;
export type SetupIdp = (typeof SETUP_IDPS)[number];

/** The provider type each IdP is configured as (Entra ID and Google Workspace speak SAML with an XML document). */
export const IDP_PROVIDER_TYPE = {
  okta: "saml",
  entra_id: "azure_ad",
  google_workspace: "google_workspace",
  onelogin: "saml",
  jumpcloud: "saml",
  adfs: "saml",
  generic_saml: "saml",
  generic_oidc: "oidc",
} as const satisfies Record<SetupIdp, "saml" | "oidc" | "azure_ad" | "google_workspace">;

export const IDP_NAMES: Record<SetupIdp, string> = {
  okta: "Okta",
  entra_id: "Microsoft Entra ID",
  google_workspace: "Google Workspace",
  onelogin: "OneLogin",
  jumpcloud: "JumpCloud",
  adfs: "AD FS",
  generic_saml: "SAML 2.0",
  generic_oidc: "OpenID Connect",
};

export const ChooseIdpInput = z.strictObject({
  idp: z.enum(SETUP_IDPS, { error: "must be one of the listed identity providers" }),
});

/**
 * The IdP's side, as the guided step gives it: its metadata URL or its metadata file, for OIDC the
 * client, and the provider's name (the IdP's name when none is given).
 */
export const SaveIdpInput = CreateSsoInput.pick({
  name: true,
  metadata_url: true,
  metadata_xml: true,
  client_id: true,
  client_secret: true,
}).partial({ name: true });
export type SaveIdpInput = z.infer<typeof SaveIdpInput>;

export const EnableSsoInput = UpdateSsoInput.pick({ domains: true });

export const TestResultInput = z.strictObject({ request_id: z.string().max(100) });

export const AddDomainInput = z.strictObject({ domain: DomainName });
export const VerifyDomainStepInput = z.strictObject({ domain_id: z.string().max(100) });

/** The guided directory setup's first step: which IdP will push (picks its steps), and a name. */
export const CreateSetupDirectoryInput = z.strictObject({
  provider: z.enum(DIRECTORY_PROVIDERS, { error: "must be one of the listed identity providers" }),
});
