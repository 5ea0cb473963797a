/** Platform users over REST: /users (operators and support list; operators create and change roles). */
import { router } from "../trpc/init.ts";
import { authedProcedure, operatorProcedure } from "../trpc/procedures.ts";
import { created, serviceContext } from "../trpc/context.ts";
import { envelope, pageRequest } from "../contract/pagination.ts";
import { CreatePlatformUserInput, ListUsersInput, PlatformUser, UpdatePlatformUserInput, UserPage } from "./schemas.ts";
import { createPlatformUser, listUsers, presentUser, updatePlatformUser } from "./platform-users.ts";

const tags = ["Users"];

export const usersRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/users",
        tags,
        summary: "List users",
        description: "Every user of the platform, newest first; operators and support only (others: 403). Paginated.",
        protect: true,
      },
    })
    .input(ListUsersInput)
    .output(UserPage)
    .query(async ({ ctx, input }) =>
      envelope(ctx.url, input, await listUsers(serviceContext(ctx), pageRequest(input), input), presentUser),
    ),

  create: operatorProcedure
    .meta({
      successStatus: 201,
      openapi: {
        method: "POST",
        path: "/users",
        tags,
        summary: "Create an operator or support user",
        description: "With a first password set by the operator. An existing email → 409. Emits `user.created`.",
        protect: true,
      },
    })
    .input(CreatePlatformUserInput)
    .output(PlatformUser)
    .mutation(async ({ ctx, input }) => {
      const user = presentUser(await createPlatformUser(serviceContext(ctx), input));
      return created(ctx, `/api/v1/users/${user.id}`, user);
    }),

  update: operatorProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: "/users/{user_id}",
        tags,
        summary: "Change a user's platform role",
        description: "`platform_role`: operator, support or null. Removing the last operator → 409. Emits `user.updated`.",
        protect: true,
      },
    })
    .input(UpdatePlatformUserInput)
    .output(PlatformUser)
    .mutation(async ({ ctx, input }) => presentUser(await updatePlatformUser(serviceContext(ctx), input))),
});
