import { z } from "zod";
import { pageOf, PageQuery } from "../contract/page-query.ts";
import { JsonBoolean, text } from "../contract/fields.ts";

export const MAX_TOKEN_NAME_LENGTH = 100;

/** Every token value starts with this. */
export const TOKEN_PREFIX = "cp_";

/** How a token is named where its value cannot be shown: the prefix and, when known, its last four characters. */
export function tokenDisplay(token: { last_four: string | null }): string {
  return `${TOKEN_PREFIX}…${token.last_four ?? ""}`;
}

export const ApiToken = z
  .object({
    id: z.uuid(),
    name: z.string(),
    user_id: z.uuid(),
    tenant_id: z.uuid().nullable().meta({ description: "When set, the token can act only in this tenant." }),
    read_only: z.boolean(),
    last_four: z.string().nullable().meta({
      description:
        "The last four characters of the token's value (every value starts with `cp_`), to tell tokens apart; null for tokens minted before it was kept.",
    }),
    expires_at: z.iso.datetime().nullable(),
    last_used_at: z.iso.datetime().nullable().meta({ description: "Updated at most once a minute." }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "ApiToken" });
export type ApiToken = z.infer<typeof ApiToken>;

export const CreatedApiToken = ApiToken.extend({
  token: z.string().meta({ description: "The token value. Shown only in this response: store it now." }),
}).meta({ id: "CreatedApiToken" });

export const CreateTokenInput = z
  .strictObject({
    name: text({ error: "is required" })
      .trim()
      .min(1, "must not be empty")
      .max(MAX_TOKEN_NAME_LENGTH, `must be at most ${MAX_TOKEN_NAME_LENGTH} characters`),
    tenant_id: z.uuid({ error: "must be a tenant id" }).optional(),
    read_only: JsonBoolean.optional(),
    expires_at: z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time" }).optional(),
    user_id: z.uuid({ error: "must be a user id" }).optional().meta({ description: "Operators only: mint the token for this user." }),
  })
  .meta({ id: "CreateTokenRequest" });
export type CreateTokenInput = z.infer<typeof CreateTokenInput>;

export const ListTokensInput = PageQuery.extend({
  user_id: z.uuid({ error: "must be a user id" }).optional().meta({ description: "Operators only: list this user's tokens." }),
});
export const TokenPage = pageOf(ApiToken).meta({ id: "ApiTokenPage" });

export const TokenPathInput = z.object({ token_id: z.string().max(100) });
