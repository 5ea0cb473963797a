/**
 * Directory Sync's REST shapes, shared by the API, the console's forms and the events (whose
 * payloads are these same representations). Pure zod and constants.
 */
import { z } from "zod";
import { pageOf, PageQuery, SearchQuery } from "../contract/page-query.ts";
import { JsonBoolean, text } from "../contract/fields.ts";

export const DIRECTORY_PROVIDERS = ["okta", "entra_id", "google_workspace", "onelogin", "jumpcloud", "generic"] as const;
export type DirectoryProvider = (typeof DIRECTORY_PROVIDERS)[number];

export const DIRECTORY_PROVIDER_NAMES: Record<DirectoryProvider, string> = {
  okta: "Okta",
  entra_id: "Microsoft Entra ID",
  google_workspace: "Google Workspace",
  onelogin: "OneLogin",
  jumpcloud: "JumpCloud",
  generic: "Other SCIM 2.0 client",
};

export const DIRECTORY_ROLES = ["admin", "viewer"] as const;
export type DirectoryRole = (typeof DIRECTORY_ROLES)[number];

export const UNLINKED_REASONS = ["outside_verified_domains", "no_email", "no_account"] as const;
export type UnlinkedReason = (typeof UNLINKED_REASONS)[number];

export const DIRECTORY_USER_STATES = ["active", "inactive"] as const;
export type DirectoryUserState = (typeof DIRECTORY_USER_STATES)[number];

/** A directory token: `scim_` and 43 base64url characters (256 random bits); only its hash is kept. */
export const DIRECTORY_TOKEN_PREFIX = "scim_";
/** SCIM requests are kept this long (the sync activity). */
export const SCIM_REQUEST_RETENTION_DAYS = 30;
export const MAX_ROLE_MAPPINGS = 50;
const MAX_NAME_LENGTH = 200;

const TenantPath = { tenant_id: z.string().max(100) };
const DirectoryPath = { ...TenantPath, directory_id: z.string().max(100) };

export const RoleMapping = z
  .strictObject({
    group: text({ error: "must be a string" })
      .trim()
      .min(1, "is required")
      .max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`)
      .meta({ description: "A group's display name (any case) or its IdP id (`externalId`)." }),
    role: z.enum(DIRECTORY_ROLES, { error: "must be admin or viewer" }),
  })
  .meta({ id: "DirectoryRoleMapping" });
export type RoleMapping = z.infer<typeof RoleMapping>;

const roleMappingsField = z
  .array(RoleMapping, { error: "must be an array of {group, role}" })
  .max(MAX_ROLE_MAPPINGS, `must have at most ${MAX_ROLE_MAPPINGS} mappings`)
  .meta({ description: "Groups → console roles; a user takes the role of the first mapping one of their groups matches." });

const defaultRoleField = z
  .enum(DIRECTORY_ROLES, { error: "must be admin, viewer or null" })
  .nullable()
  .meta({ description: "The console role of a directory user in no mapped group; null: no console membership." });

const governsExistingField = JsonBoolean.meta({
  description:
    "Whether the directory also governs members who joined another way (invited, added by an operator, joined through SSO): it then sets their role and ends their membership when they leave the IdP. Default false: it governs only the memberships it created. Changing it needs a fresh step-up.",
});

const directoryName = text({ error: "must be a string" })
  .trim()
  .min(1, "is required")
  .max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`);

export const Directory = z
  .object({
    id: z.uuid(),
    tenant_id: z.uuid(),
    name: z.string(),
    provider: z.enum(DIRECTORY_PROVIDERS).meta({ description: "The IdP that pushes to it; picks the setup steps." }),
    enabled: z.boolean().meta({ description: "A disabled directory answers 401 to its IdP." }),
    scim_base_url: z.string().meta({ description: "`{APP_URL}/api/scim/v2/{directory_id}`: the SCIM base URL to give the IdP." }),
    token_hint: z.string().meta({ description: "The token's last 4 characters." }),
    default_role: defaultRoleField,
    role_mappings: z.array(RoleMapping),
    governs_existing_members: z.boolean().meta({
      description: "Whether it also governs members who joined another way; false: only the memberships it created.",
    }),
    user_count: z.number().int(),
    group_count: z.number().int(),
    last_request_at: z.iso.datetime().nullable().meta({ description: "The IdP's last SCIM request." }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Directory" });
export type Directory = z.infer<typeof Directory>;

export const DirectoryWithToken = Directory.extend({
  token: z.string().meta({ description: "The bearer token for the IdP. Shown once: only its hash is kept." }),
}).meta({ id: "DirectoryWithToken" });
export type DirectoryWithToken = z.infer<typeof DirectoryWithToken>;

export const ListDirectoriesInput = PageQuery.extend(TenantPath);
export const DirectoryPage = pageOf(Directory).meta({ id: "DirectoryPage" });
export const DirectoryPathInput = z.object(DirectoryPath);

export const CreateDirectoryInput = z
  .strictObject({
    ...TenantPath,
    name: directoryName,
    provider: z
      .enum(DIRECTORY_PROVIDERS, { error: `must be one of ${DIRECTORY_PROVIDERS.join(", ")}` })
      .optional()
      .meta({ description: "Default `generic`." }),
    default_role: defaultRoleField.optional().meta({ description: "Default null: only mapped groups get a console membership." }),
    role_mappings: roleMappingsField.optional(),
    governs_existing_members: governsExistingField.optional(),
  })
  .meta({ id: "CreateDirectoryRequest" });
export type CreateDirectoryInput = z.infer<typeof CreateDirectoryInput>;

export const UpdateDirectoryInput = z
  .strictObject({
    ...DirectoryPath,
    name: directoryName.optional(),
    enabled: JsonBoolean.optional(),
    default_role: defaultRoleField.optional(),
    role_mappings: roleMappingsField.optional(),
    governs_existing_members: governsExistingField.optional(),
  })
  .meta({ id: "UpdateDirectoryRequest" });
export type UpdateDirectoryInput = z.infer<typeof UpdateDirectoryInput>;

export const DirectoryEmail = z.object({
  value: z.string(),
  type: z.string().nullable(),
  primary: z.boolean(),
});

export const DirectoryUser = z
  .object({
    id: z.uuid(),
    directory_id: z.uuid(),
    idp_id: z.string().nullable().meta({ description: "The IdP's id for the person (SCIM `externalId`)." }),
    user_name: z.string(),
    emails: z.array(DirectoryEmail),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    state: z.enum(DIRECTORY_USER_STATES).meta({ description: "`inactive` once the IdP set `active: false`." }),
    groups: z.array(z.object({ id: z.uuid(), name: z.string() })),
    role: z.enum(DIRECTORY_ROLES).nullable().meta({ description: "The console role the directory gives them; null: none." }),
    user_id: z
      .uuid()
      .nullable()
      .meta({ description: "The console user they are (matched by email), when linked and a member of the tenant; null otherwise." }),
    linked: z.boolean().meta({
      description:
        "Whether the directory user is linked to a console account: only people whose email is in one of the tenant's verified domains are.",
    }),
    unlinked_reason: z.enum(UNLINKED_REASONS).nullable().meta({
      description:
        "Why it is not linked: `outside_verified_domains` (its email is not in a verified domain of the tenant: it touches no account; invite the person instead), `no_email`, or `no_account` (the directory gives it no role, so no account was made). Null when linked.",
    }),
    custom_attributes: z.record(z.string(), z.unknown()).meta({ description: "The enterprise extension's attributes." }),
    raw_attributes: z.record(z.string(), z.unknown()).meta({ description: "The SCIM resource as the IdP sent it." }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "DirectoryUser" });
export type DirectoryUser = z.infer<typeof DirectoryUser>;

export const DirectoryGroup = z
  .object({
    id: z.uuid(),
    directory_id: z.uuid(),
    idp_id: z.string().nullable().meta({ description: "The IdP's id for the group (SCIM `externalId`)." }),
    name: z.string(),
    user_count: z.number().int(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "DirectoryGroup" });
export type DirectoryGroup = z.infer<typeof DirectoryGroup>;

export const ListDirectoryUsersInput = PageQuery.extend({
  ...DirectoryPath,
  group_id: z.string().max(100).optional().meta({ description: "Only members of this directory group." }),
  state: z.enum(DIRECTORY_USER_STATES, { error: "must be active or inactive" }).optional(),
  linked: z
    .enum(["true", "false"], { error: "must be true or false" })
    .optional()
    .meta({ description: "`true`: only users linked to a console account; `false`: only those not linked (see `unlinked_reason`)." }),
  search: SearchQuery.optional().meta({ description: "Part of the user name, an email or a name, any case." }),
});
export type ListDirectoryUsersInput = z.infer<typeof ListDirectoryUsersInput>;
export const DirectoryUserPage = pageOf(DirectoryUser).meta({ id: "DirectoryUserPage" });
export const DirectoryUserPathInput = z.object({ ...DirectoryPath, directory_user_id: z.string().max(100) });

export const ListDirectoryGroupsInput = PageQuery.extend({
  ...DirectoryPath,
  search: SearchQuery.optional().meta({ description: "Part of the group's name, any case." }),
});
export const DirectoryGroupPage = pageOf(DirectoryGroup).meta({ id: "DirectoryGroupPage" });
export const DirectoryGroupPathInput = z.object({ ...DirectoryPath, directory_group_id: z.string().max(100) });

export const ScimRequestEntry = z
  .object({
    id: z.string(),
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
    duration_ms: z.number().int(),
    summary: z.string(),
    scim_type: z.string().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "ScimRequest" });
export type ScimRequestEntry = z.infer<typeof ScimRequestEntry>;

export const ListScimRequestsInput = PageQuery.extend({
  ...DirectoryPath,
  failed: z
    .enum(["true", "false"], { error: "must be true or false" })
    .optional()
    .meta({ description: "`true`: only the requests answered with an error (status 400 or above); `false`: only the others." }),
});
export type ListScimRequestsInput = z.infer<typeof ListScimRequestsInput>;
export const ScimRequestPage = pageOf(ScimRequestEntry).meta({ id: "ScimRequestPage" });
