import { router } from "../trpc/init.ts";
import { tenantProcedure } from "../trpc/procedures.ts";
import { created, noContent, serviceContext } from "../trpc/context.ts";
import { envelope, pageRequest } from "../contract/pagination.ts";
import { z } from "zod";
import {
  AddMemberInput,
  ListMembersInput,
  Member,
  MemberPage,
  MemberPathInput,
  SetMemberPasswordInput,
  UpdateMemberInput,
} from "./schemas.ts";
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
      openapi: {
        method: "POST",
        path: base,
        tags,
        summary: "Add a member",
        description:
          "Creates the user if the email is new (`password` optional: without one the user cannot sign in until an admin sets it in the console). Emits `user.created`.",
        protect: true,
      },
    })
    .input(AddMemberInput)
    .output(Member)
    .mutation(async ({ ctx, input }) => {
      const member = presentMember(await addMember(serviceContext(ctx), input));
      return created(ctx, `/api/v1/tenants/${member.tenant_id}/members/${member.user_id}`, member);
    }),

  update: tenantProcedure("admin")
    .meta({
      openapi: {
        method: "PATCH",
        path: `${base}/{user_id}`,
        tags,
        summary: "Change a member's role or name",
        description: "Demoting the last admin is 409. Emits `user.updated` with the changed fields.",
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
