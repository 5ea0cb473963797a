import { z } from "zod";
import { router } from "../trpc/init.ts";
import { authedProcedure, writeProcedure } from "../trpc/procedures.ts";
import { created, noContent, serviceContext } from "../trpc/context.ts";
import { envelope, pageRequest } from "../contract/pagination.ts";
import { CreatedApiToken, CreateTokenInput, ListTokensInput, TokenPage, TokenPathInput } from "./schemas.ts";
import { createToken, listTokens, presentToken, revokeToken } from "./service.ts";

const tags = ["API tokens"];

export const tokensRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/tokens",
        tags,
        summary: "List your API tokens",
        description: "Revoked tokens are not listed. Operators may pass `user_id`.",
        protect: true,
      },
    })
    .input(ListTokensInput)
    .output(TokenPage)
    .query(async ({ ctx, input }) =>
      envelope(ctx.url, input, await listTokens(serviceContext(ctx), { userId: input.user_id, page: pageRequest(input) }), presentToken),
    ),

  create: writeProcedure
    .meta({
      successStatus: 201,
      openapi: {
        method: "POST",
        path: "/tokens",
        tags,
        summary: "Create an API token",
        description: "The reply carries the token value (`token`) once; only its SHA-256 is stored. Emits `api_token.created`.",
        protect: true,
      },
    })
    .input(CreateTokenInput)
    .output(CreatedApiToken)
    .mutation(async ({ ctx, input }) => {
      const { token, value } = await createToken(serviceContext(ctx), input);
      return created(ctx, `/api/v1/tokens/${token.id}`, { ...presentToken(token), token: value });
    }),

  revoke: writeProcedure
    .meta({
      successStatus: 204,
      openapi: {
        method: "DELETE",
        path: "/tokens/{token_id}",
        tags,
        summary: "Revoke an API token",
        description: "Emits `api_token.revoked`.",
        protect: true,
      },
    })
    .input(TokenPathInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await revokeToken(serviceContext(ctx), input.token_id);
      noContent(ctx);
    }),
});
