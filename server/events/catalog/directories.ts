/** The catalog's kinds about Directory Sync: directories, and the people and groups they push. */
import { z } from "zod";
import { DirectoryGroup, DirectoryUser } from "../../directories/schemas.ts";
import { Changes, details, kind, EXAMPLE_ID } from "./define.ts";

const name = z.string().meta({ description: "The directory's name." });
const at = "2026-12-05T09:00:00.000Z";
const group = {
  id: EXAMPLE_ID,
  directory_id: EXAMPLE_ID,
  idp_id: "00g1",
  name: "Engineering",
  user_count: 12,
  created_at: at,
  updated_at: at,
};
const user = {
  id: EXAMPLE_ID,
  directory_id: EXAMPLE_ID,
  idp_id: "00u1",
  user_name: "grace@acme.com",
  emails: [{ value: "grace@acme.com", type: "work", primary: true }],
  first_name: "Grace",
  last_name: "Hopper",
  state: "active" as const,
  groups: [{ id: EXAMPLE_ID, name: "Engineering" }],
  role: "viewer" as const,
  user_id: EXAMPLE_ID,
  linked: true,
  unlinked_reason: null,
  custom_attributes: {},
  raw_attributes: {},
  created_at: at,
  updated_at: at,
};
const patched = (description: string) =>
  kind({
    group: "directory",
    description,
    target: "directory",
    details: details({ name, changes: Changes }),
    example: { name: "Okta", changes: { enabled: { from: true, to: false } } },
  });
const userKind = (description: string) =>
  kind({
    group: "directory",
    description,
    target: "directory_user",
    details: details({ directory_id: z.string(), directory_user: DirectoryUser }),
    example: { directory_id: EXAMPLE_ID, directory_user: user },
  });
const groupKind = (description: string) =>
  kind({
    group: "directory",
    description,
    target: "directory_group",
    details: details({ directory_id: z.string(), directory_group: DirectoryGroup }),
    example: { directory_id: EXAMPLE_ID, directory_group: group },
  });
const membershipKind = (description: string) =>
  kind({
    group: "directory",
    description,
    target: "directory_user",
    details: details({ directory_id: z.string(), directory_user: DirectoryUser, directory_group: DirectoryGroup }),
    example: { directory_id: EXAMPLE_ID, directory_user: user, directory_group: group },
  });

export const directoryKinds = {
  "directory.created": kind({
    group: "directory",
    description: "A SCIM directory was created (its bearer token is shown once).",
    target: "directory",
    details: details({
      name,
      provider: z.string(),
      default_role: z.string().nullable(),
      role_mappings: z.array(z.object({ group: z.string(), role: z.string() })),
      governs_existing_members: z.boolean().optional(),
      token_hint: z.string(),
    }),
    example: {
      name: "Okta",
      provider: "okta",
      default_role: "viewer",
      role_mappings: [{ group: "Admins", role: "admin" }],
      governs_existing_members: false,
      token_hint: "…x7Qa",
    },
  }),
  "directory.updated": patched("A directory's name, default role, role mappings or `governs_existing_members` changed."),
  "directory.enabled": patched("A directory was turned on: its IdP may push again."),
  "directory.disabled": patched("A directory was turned off: its token is refused."),
  "directory.deleted": kind({
    group: "directory",
    description: "A directory was deleted, with its users and groups.",
    target: "directory",
    details: details({ name, provider: z.string(), user_count: z.number().int(), group_count: z.number().int() }),
    example: { name: "Okta", provider: "okta", user_count: 120, group_count: 8 },
  }),
  "directory.token_rotated": kind({
    group: "directory",
    description: "A directory's bearer token was replaced; the old one stops working at once.",
    target: "directory",
    details: details({ name, previous_token_hint: z.string(), token_hint: z.string() }),
    example: { name: "Okta", previous_token_hint: "…x7Qa", token_hint: "…9LpE" },
  }),
  "directory_user.created": userKind("The IdP provisioned a person."),
  "directory_user.updated": userKind("The IdP changed a person's attributes."),
  "directory_user.deactivated": userKind("The IdP deactivated a person (`active: false`)."),
  "directory_user.reactivated": userKind("The IdP reactivated a person."),
  "directory_user.deleted": userKind("The IdP deleted a person."),
  "directory_user.deprovision_refused": kind({
    group: "directory",
    description:
      "The IdP deactivated, removed or demoted the tenant's last admin: the directory user is suspended in the directory, but the membership and its role stay (a tenant always keeps an admin). Make another member admin, and the IdP's next change goes through.",
    target: "directory_user",
    details: details({
      directory_id: z.string(),
      email: z.string(),
      user_id: z.string().meta({ description: "The console user who stays admin." }),
      action: z.enum(["remove", "demote"]).meta({ description: "What the directory's change would have done." }),
      reason: z.literal("last_admin"),
      detail: z.string(),
    }),
    example: {
      directory_id: EXAMPLE_ID,
      email: "grace@acme.com",
      user_id: EXAMPLE_ID,
      action: "remove",
      reason: "last_admin",
      detail: "grace@acme.com is the tenant's last admin: the membership stays until another member is made admin",
    },
  }),
  "directory_group.created": groupKind("The IdP pushed a new group."),
  "directory_group.updated": groupKind("The IdP renamed a group or changed its id."),
  "directory_group.deleted": groupKind("The IdP deleted a group."),
  "directory_group.user_added": membershipKind("A person joined a group (one event per member added)."),
  "directory_group.user_removed": membershipKind("A person left a group (one event per member removed)."),
};
