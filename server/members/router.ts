import { router } from "../trpc/init.ts";
import { tenantProcedure } from "../trpc/procedures.ts";
import { accepted, created, noContent, serviceContext } from "../trpc/context.ts";
import { envelope, pageRequest } from "../contract/pagination.ts";
import { z } from "zod";
import {
  AddMemberInput,
  AddMemberResult,
  ListMembersInput,
  Member,
  MemberPage,
  MemberPathInput,
  SetMemberPasswordInput,
  UpdateMemberInput,
} from "./schemas.ts";
import { SentInvitation } from "../invitations/schemas.ts";
import { addMember, getMember, listMembers, presentMember, removeMember, setFirstPassword, updateMember } from "./service.ts";

const base = "/tenants/{tenant_id}/members";
const tags = ["Members"];

export const membersRouter = router({
  list: tenantProcedure("viewer")
    .meta({ openapi: { method: "GET", path: base, tags, summary: "List a tenant's members", protect: true } })
    .input(ListMembersInput)
    .output(MemberPage)
    .query(async ({ ctx, input }) => envelope(ctx.url, input, await listMembers(serviceContext(ctx), pageRequest(input)), presentMember)),

  get: tenantProcedure("viewer")
    .meta({ openapi: { method: "GET", path: `${base}/{user_id}`, tags, summary: "Get a member", protect: true } })
    .input(MemberPathInput)
    .output(Member)
    .query(async ({ ctx, input }) => presentMember(await getMember(serviceContext(ctx), input.user_id))),

  add: tenantProcedure("admin")
    .meta({
      successStatus: 201,
      outcomes: {
        201: { body: Member, description: "Added: an operator added an email new to the platform; `Location` is the member." },
        202: { body: SentInvitation, description: "Invited: the person joins when they accept the emailed link (7 days)." },
      },
      openapi: {
        method: "POST",
        path: base,
        tags,
        summary: "Add a member, or invite them",
        description:
          "An existing account joins only by accepting an invitation. Tenant admins always invite: 202 with the invitation, the same answer whether or not the email has an account " +
          "(as `POST …/invitations`, with its 409s; `name` or `password` is 403, the person chooses their own). " +
          "Platform operators add an email new to the platform at once: 201 with the member, its user created (`password` optional: without one they cannot sign in until an operator sets it in the console); " +
          "an existing account is invited (202). Emits `user.created` or `invitation.created`.",
        protect: true,
      },
    })
    .input(AddMemberInput)
    .output(AddMemberResult)
    .mutation(async ({ ctx, input }) => {
      const added = await addMember(serviceContext(ctx), input);
      if (added.invitation) return accepted(ctx, added.invitation);
      const member = presentMember(added.member);
      return created(ctx, `/api/v1/tenants/${member.tenant_id}/members/${member.user_id}`, member);
    }),

  update: tenantProcedure("admin")
    .meta({
      openapi: {
        method: "PATCH",
        path: `${base}/{user_id}`,
        tags,
        summary: "Change a member's role or name",
        description:
          "`name` is this tenant's name for the member: their account's own name, and what other tenants show, stay as they are. " +
          "Demoting the last admin is 409. Emits `user.updated` with the changed fields.",
        protect: true,
      },
    })
    .input(UpdateMemberInput)
    .output(Member)
    .mutation(async ({ ctx, input }) => presentMember(await updateMember(serviceContext(ctx), input))),

  remove: tenantProcedure("admin")
    .meta({
      successStatus: 204,
      openapi: {
        method: "DELETE",
        path: `${base}/{user_id}`,
        tags,
        summary: "Remove a member",
        description: "Removing the last admin is 409. Emits `user.removed`.",
        protect: true,
      },
    })
    .input(MemberPathInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await removeMember(serviceContext(ctx), input.user_id);
      noContent(ctx);
    }),

  /** Console only, platform operators only (the service refuses others): the first password of a member who has none. */
  setPassword: tenantProcedure("admin")
    .input(SetMemberPasswordInput)
    .output(Member)
    .mutation(async ({ ctx, input }) => presentMember(await setFirstPassword(serviceContext(ctx), input))),
});
