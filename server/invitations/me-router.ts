/**
 * The caller's own invitations (/me/invitations): those addressed to its account's email, in any
 * tenant, accepted signed in without the link. Console and REST alike.
 */
import { router } from "../trpc/init.ts";
import { authedProcedure, writeProcedure } from "../trpc/procedures.ts";
import { serviceContext } from "../trpc/context.ts";
import { envelope, pageRequest } from "../contract/pagination.ts";
import { AcceptedInvitation, ListMyInvitationsInput, MyInvitationPage, MyInvitationPathInput } from "./schemas.ts";
import { acceptMyInvitation, listMyInvitations } from "./accept.ts";

const tags = ["Members"];

export const myInvitationsRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/me/invitations",
        tags,
        summary: "Your pending invitations",
        description:
          "Invitations addressed to your account's email, in any tenant, not yet accepted, revoked or expired; newest first. " +
          "A token scoped to one tenant: 403. Paginated.",
        protect: true,
      },
    })
    .input(ListMyInvitationsInput)
    .output(MyInvitationPage)
    .query(async ({ ctx, input }) =>
      envelope(ctx.url, input, await listMyInvitations(serviceContext(ctx), pageRequest(input)), (invitation) => invitation),
    ),

  accept: writeProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/me/invitations/{invitation_id}/accept",
        tags,
        summary: "Accept one of your invitations",
        description:
          "Signed in as the invitee (a console session, or an unscoped token that may write): joins the tenant with the invitation's role, no link needed. " +
          "An invitation not addressed to your email: 404. Used or expired: 404 saying which; already a member: 409. " +
          "A tenant-scoped or read-only token: 403. An SSO session may accept an invitation to another tenant, which it does not reach itself: " +
          "the new tenant opens from a sign-in that reaches it (your password). Emits `user.created` and `invitation.accepted`.",
        protect: true,
      },
    })
    .input(MyInvitationPathInput)
    .output(AcceptedInvitation)
    .mutation(({ ctx, input }) => acceptMyInvitation(serviceContext(ctx), input.invitation_id)),
});
