import { z } from "zod";
import { router } from "../trpc/init.ts";
import { publicProcedure, tenantProcedure } from "../trpc/procedures.ts";
import { createdMany, noContent, serviceContext } from "../trpc/context.ts";
import { envelope, pageRequest } from "../contract/pagination.ts";
import { mailServerConfigured } from "../mail/mailer.ts";
import {
  AcceptedInvitation,
  AcceptInvitationInput,
  CreateInvitationInput,
  InvitationPage,
  InvitationDelivery,
  InvitationPathInput,
  InvitationPreview,
  InvitationTokenInput,
  ListInvitationsInput,
  TenantPathInput,
  SentInvitation,
} from "./schemas.ts";
import { createInvitation, listInvitations, presentInvitation, resendInvitation, revokeInvitation } from "./service.ts";
import { acceptInvitation, previewInvitation } from "./accept.ts";

const base = "/tenants/{tenant_id}/invitations";
const tags = ["Members"];

export const invitationsRouter = router({
  list: tenantProcedure("admin")
    .meta({
      openapi: {
        method: "GET",
        path: base,
        tags,
        summary: "List a tenant's invitations",
        description: "Newest first; `status` filters.",
        protect: true,
      },
    })
    .input(ListInvitationsInput)
    .output(InvitationPage)
    .query(async ({ ctx, input }) =>
      envelope(ctx.url, input, await listInvitations(serviceContext(ctx), pageRequest(input), input.status), presentInvitation),
    ),

  create: tenantProcedure("admin")
    .meta({
      successStatus: 201,
      location: false,
      openapi: {
        method: "POST",
        path: base,
        tags,
        summary: "Invite someone by email",
        description:
          "Mails a single-use link, valid 7 days: someone new sets a password and joins with `role`; an account that exists joins only by accepting signed in as itself. " +
          "Without a mail server (SMTP_URL unset) the mail is written to the server's mail folder and `link` hands the link to the inviter, but only for an email with no account " +
          "and outside other tenants' verified domains; otherwise `link` is null and `accept_by` is `sign_in`: the person signs in to the console and accepts there. " +
          "409 when the email is already a member or has a pending invitation. Emits `invitation.created`.",
        protect: true,
      },
    })
    .input(CreateInvitationInput)
    .output(SentInvitation)
    // No Location: an invitation has no URL of its own to GET; it is listed.
    .mutation(async ({ ctx, input }) => createdMany(ctx, await createInvitation(serviceContext(ctx), input))),

  resend: tenantProcedure("admin")
    .meta({
      openapi: {
        method: "POST",
        path: `${base}/{invitation_id}/resend`,
        tags,
        summary: "Resend an invitation",
        description:
          "A new link, valid 7 days; the previous link stops working. Answers as create does (`link` and `accept_by`). Accepted or revoked invitations: 409. Emits `invitation.resent`.",
        protect: true,
      },
    })
    .input(InvitationPathInput)
    .output(SentInvitation)
    .mutation(async ({ ctx, input }) => resendInvitation(serviceContext(ctx), input.invitation_id)),

  revoke: tenantProcedure("admin")
    .meta({
      successStatus: 204,
      openapi: {
        method: "DELETE",
        path: `${base}/{invitation_id}`,
        tags,
        summary: "Revoke an invitation",
        description: "Its link stops working. An accepted invitation: 409 (remove the member instead). Emits `invitation.revoked`.",
        protect: true,
      },
    })
    .input(InvitationPathInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await revokeInvitation(serviceContext(ctx), input.invitation_id);
      noContent(ctx);
    }),

  /** Console only: whether links go out by mail, or (no mail server) the admin passes them on. */
  delivery: tenantProcedure("admin")
    .input(TenantPathInput)
    .output(InvitationDelivery)
    .query(() => ({ mail_server: mailServerConfigured() })),

  preview: publicProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/invitations/lookup",
        tags,
        summary: "Look at an invitation by its link token",
        description:
          "Public: the token is the credential (POST keeps it out of URLs and logs). Says nothing of the account the email may have. Unknown, used, revoked or expired: 404.",
      },
    })
    .input(InvitationTokenInput)
    .output(InvitationPreview)
    .mutation(({ ctx, input }) => previewInvitation(ctx.db, input.token)),

  accept: publicProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/invitations/accept",
        tags,
        summary: "Accept an invitation",
        description:
          "The token works once. An email with no account: public, `password` (required) and `name` create the account and join. " +
          "An account that exists is only ever joined by its owner: call this signed in as it (401 anonymous, 403 as another user or with a tenant-scoped or read-only token); " +
          "nothing of the account changes (`password` and `name` are ignored). " +
          "With no mail server, an email in another tenant's verified domain gets no account by link (403): it signs in through that organisation's SSO, then accepts in the console. Emits `user.created` and `invitation.accepted`.",
      },
      signedInOptional: true,
    })
    .input(AcceptInvitationInput)
    .output(AcceptedInvitation)
    .mutation(({ ctx, input }) => acceptInvitation(ctx.db, { principal: ctx.principal, request: ctx.request }, input)),
});
