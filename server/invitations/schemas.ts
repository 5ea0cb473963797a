import { z } from "zod";
import { pageOf, PageQuery } from "../contract/page-query.ts";
import { Email, Password, PersonName, TenantRoleSchema } from "../contract/fields.ts";

export const INVITATION_TTL_DAYS = 7;
export const INVITATION_STATUSES = ["pending", "accepted", "revoked", "expired"] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];
/** Link tokens are 43 base64url characters; anything far longer is not one. */
const MAX_LINK_TOKEN_LENGTH = 200;

const TenantPath = { tenant_id: z.string().max(100) };
const InvitationPath = { ...TenantPath, invitation_id: z.string().max(100) };

export const Invitation = z
  .object({
    id: z.uuid(),
    tenant_id: z.uuid(),
    email: z.string(),
    role: TenantRoleSchema,
    status: z.enum(INVITATION_STATUSES),
    invited_by: z.uuid().nullable().meta({ description: "The user who sent (or last resent) it." }),
    expires_at: z.iso.datetime(),
    accepted_at: z.iso.datetime().nullable(),
    revoked_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "Invitation" });
export type Invitation = z.infer<typeof Invitation>;

/** How an invitee accepts: by the invitation's link, or by signing in and accepting in the console. */
export const ACCEPT_BY = ["link", "sign_in"] as const;
export type AcceptBy = (typeof ACCEPT_BY)[number];

/**
 * The reply to create and resend: the invitation, whether its mail was handed to a mail server, and
 * the link itself only where no mail server is configured and the email has no account yet (nor
 * belongs to another tenant's verified domain). There the message lies in a file on the server and
 * the inviter is its only courier; with a mail server, the mail's arrival is what proves the invitee
 * holds the address, so the link is never shown to the inviter. An account that exists is only
 * ever joined by its owner: its link goes to no inviter (`accept_by: sign_in`).
 */
export const SentInvitation = Invitation.extend({
  email_sent: z.boolean().meta({
    description:
      "False when no mail went out: the mail server refused it or could not be reached (resend later), or none is configured (see `link` and `accept_by`). The invitation exists either way.",
  }),
  link: z.string().nullable().meta({
    description:
      "Only when the server has no mail server configured (SMTP_URL unset) and `accept_by` is `link`: the invitation link, which was written to the server's mail folder instead of sent. Pass it on to the invitee. Null otherwise.",
  }),
  accept_by: z.enum(ACCEPT_BY).meta({
    description:
      "How the invitee accepts. `link`: by the invitation link (mailed to them, or in `link` to pass on). " +
      "`sign_in`: no mail server is configured and the email already has an account, or belongs to a verified domain of another tenant, so no link is handed out: " +
      "the invitee signs in to the console as that account (password, or their organisation's SSO) and accepts the invitation there (`GET /me/invitations`). " +
      "With a mail server configured it is always `link`, whether or not the email has an account.",
  }),
}).meta({ id: "SentInvitation" });
export type SentInvitation = z.infer<typeof SentInvitation>;

export const ListInvitationsInput = PageQuery.extend({
  ...TenantPath,
  status: z.enum(INVITATION_STATUSES, { error: "must be pending, accepted, revoked or expired" }).optional(),
});
export const InvitationPage = pageOf(Invitation).meta({ id: "InvitationPage" });

export const CreateInvitationInput = z
  .strictObject({ ...TenantPath, email: Email, role: TenantRoleSchema })
  .meta({ id: "CreateInvitationRequest" });
export type CreateInvitationInput = z.infer<typeof CreateInvitationInput>;

export const InvitationPathInput = z.object(InvitationPath);
export const TenantPathInput = z.object(TenantPath);

export const InvitationDelivery = z.object({
  mail_server: z.boolean().meta({ description: "False: no mail server is configured; invitation links are given to the inviter." }),
});

const LinkToken = z.string({ error: "is required" }).min(1, "is required").max(MAX_LINK_TOKEN_LENGTH, "is not a valid link token");

export const InvitationTokenInput = z.strictObject({ token: LinkToken }).meta({ id: "InvitationTokenRequest" });

/** What the invite page shows before accepting: nothing about the account the email may have. */
export const InvitationPreview = z
  .object({
    tenant_id: z.uuid(),
    tenant_name: z.string(),
    email: z.string(),
    role: TenantRoleSchema,
    expires_at: z.iso.datetime(),
  })
  .meta({ id: "InvitationPreview" });
export type InvitationPreview = z.infer<typeof InvitationPreview>;

export const AcceptInvitationInput = z
  .strictObject({
    token: LinkToken,
    password: Password.optional().meta({
      description: "The new account's password: required when the invited email has no account yet; ignored for an account that exists.",
    }),
    name: PersonName.optional().meta({ description: "The new account's name; ignored for an account that exists." }),
  })
  .meta({ id: "AcceptInvitationRequest" });
export type AcceptInvitationInput = z.infer<typeof AcceptInvitationInput>;

export const AcceptedInvitation = z
  .object({ tenant_id: z.uuid(), user_id: z.uuid(), email: z.string(), role: TenantRoleSchema })
  .meta({ id: "AcceptedInvitation" });
export type AcceptedInvitation = z.infer<typeof AcceptedInvitation>;

/** An invitation addressed to the caller's own account, waiting for them to accept it. */
export const MyInvitation = z
  .object({
    id: z.uuid(),
    tenant_id: z.uuid(),
    tenant_name: z.string(),
    role: TenantRoleSchema,
    invited_by_email: z.string().nullable().meta({ description: "Who sent (or last resent) it; null when that user is gone." }),
    expires_at: z.iso.datetime(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "MyInvitation" });
export type MyInvitation = z.infer<typeof MyInvitation>;

export const ListMyInvitationsInput = PageQuery;
export const MyInvitationPage = pageOf(MyInvitation).meta({ id: "MyInvitationPage" });

export const MyInvitationPathInput = z.object({ invitation_id: z.string().max(100) });
