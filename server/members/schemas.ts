import { z } from "zod";
import { Email, Password, PersonName, TenantRoleSchema } from "../contract/fields.ts";
import { pageOf, PageQuery } from "../contract/page-query.ts";
import { SentInvitation } from "../invitations/schemas.ts";

export const MEMBER_REVIEW_REASONS = ["directory_outside_verified_domains"] as const;
export type MemberReviewReason = (typeof MEMBER_REVIEW_REASONS)[number];

const TenantPath = { tenant_id: z.string().max(100) };
const MemberPath = { ...TenantPath, user_id: z.string().max(100) };

export const Member = z
  .object({
    user_id: z.uuid(),
    tenant_id: z.uuid(),
    email: z.string(),
    name: z.string().nullable().meta({ description: "The name this tenant's admins gave the member, else their account's own." }),
    role: TenantRoleSchema,
    has_password: z.boolean().meta({ description: "Whether the user can sign in to the console." }),
    directory: z.object({ id: z.uuid(), name: z.string() }).nullable().meta({
      description:
        "The directory that governs the membership (it created it, or captured it with `governs_existing_members`): it sets the role and ends the membership when the person leaves the IdP. Null: the tenant's admins do.",
    }),
    review_reason: z.enum(MEMBER_REVIEW_REASONS).nullable().meta({
      description:
        "Set when the membership needs an admin's review. `directory_outside_verified_domains`: a directory made it, before directories were held to the tenant's verified domains, for an account outside them. PATCH `reviewed: true` clears it.",
    }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "Member" });
export type Member = z.infer<typeof Member>;

/** Adding someone: the member added (201), or the invitation sent instead (202; server/members/service.ts, addMember). */
export const AddMemberResult = z.union([Member, SentInvitation]);

/** Adding someone answers the member, or the invitation sent instead (server/members/service.ts, addMember). */
export function wasAdded<Invited extends object>(result: Member | Invited): result is Member {
  return "user_id" in result;
}

export const ListMembersInput = PageQuery.extend(TenantPath);
export const MemberPage = pageOf(Member).meta({ id: "MemberPage" });

export const AddMemberInput = z
  .strictObject({
    ...TenantPath,
    email: Email,
    role: TenantRoleSchema,
    name: PersonName.optional().meta({
      description: "Platform operators only, for an email new to the platform (tenant admins: 403; the invitee chooses their own).",
    }),
    password: Password.optional().meta({
      description: "Platform operators only, for an email new to the platform (tenant admins: 403); an existing account keeps its own.",
    }),
  })
  .meta({ id: "AddMemberRequest" });
export type AddMemberInput = z.infer<typeof AddMemberInput>;

export const UpdateMemberInput = z
  .strictObject({
    ...MemberPath,
    role: TenantRoleSchema.optional(),
    name: PersonName.optional().meta({
      description: "This tenant's name for the member. The account's own name, which other tenants show, does not change.",
    }),
    reviewed: z
      .literal(true, { error: "must be true" })
      .optional()
      .meta({ description: "Clears `review_reason`: an admin looked at the membership and keeps it." }),
  })
  .meta({ id: "UpdateMemberRequest" });
export type UpdateMemberInput = z.infer<typeof UpdateMemberInput>;

export const MemberPathInput = z.object(MemberPath);

export const SetMemberPasswordInput = z.strictObject({ ...MemberPath, password: Password });
