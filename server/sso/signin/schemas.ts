/** Test sign-in over REST and the console: starting one, and reading what it found. */
import { z } from "zod";
import { REFUSAL_REASONS } from "./protocol.ts";

const Path = { tenant_id: z.string().max(100), provider_id: z.string().max(100) };
export const TestSignInInput = z.object(Path);
export const TestSignInResultInput = z.object({ ...Path, request_id: z.string().max(100) });

export const TestSignInStarted = z
  .object({
    url: z.string().meta({
      description: "Open this in a browser signed in to the console as you: the IdP (or the result, when it failed before the IdP).",
    }),
    result_url: z.string().meta({ description: "The console page that shows the result." }),
    request_id: z.uuid(),
  })
  .meta({ id: "TestSignInStarted" });

export const SsoProfileSchema = z
  .object({
    id: z.string().meta({ description: "The subject at the IdP (OIDC sub, SAML NameID)." }),
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    groups: z.array(z.string()),
    idp_id: z.string().meta({
      description: "The person's id at the IdP, as the broker's profile names it (the same value as `id`: OIDC sub, SAML NameID).",
    }),
    issuer: z.string().meta({ description: "The issuer / entity ID that vouched." }),
    raw_attributes: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "SsoProfile" });

export const TestSignInResult = z
  .object({
    request_id: z.uuid(),
    provider_id: z.uuid(),
    status: z.enum(["pending", "succeeded", "failed"]),
    profile: SsoProfileSchema.nullable(),
    domain_matches: z
      .boolean()
      .nullable()
      .meta({ description: "Whether the email's domain is one of the provider's domains (console sign-in needs it)." }),
    reason: z.enum(REFUSAL_REASONS).nullable(),
    detail: z.string().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({
    id: "TestSignInResult",
    description: "What a Test sign-in received: the profile, or the exact reason it failed. It creates no user and no session.",
  });
export type TestSignInResult = z.infer<typeof TestSignInResult>;
