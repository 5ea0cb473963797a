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
import {
  acceptInvitation,
  createInvitation,
  listInvitations,
  presentInvitation,
  previewInvitation,
  resendInvitation,
  revokeInvitation,
} from "./service.ts";

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
          "Mails a single-use link, valid 7 days, to set a password and join with `role` (an account that already has a password joins by accepting while signed in). " +
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
          "A new link, valid 7 days; the previous link stops working. Accepted or revoked invitations: 409. Emits `invitation.resent`.",
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
        description: "Public: the token is the credential (POST keeps it out of URLs and logs). Unknown, used, revoked or expired: 404.",
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
          "Public: the token is the credential, and works once. New accounts (and accounts without a password) set `password`; " +
          "an account with a password must call this signed in as itself (401 otherwise, 403 as another user). Emits `user.created` and `invitation.accepted`.",
      },
    })
    .input(AcceptInvitationInput)
    .output(AcceptedInvitation)
    .mutation(({ ctx, input }) => acceptInvitation(ctx.db, { principal: ctx.principal, request: ctx.request }, input)),
});
