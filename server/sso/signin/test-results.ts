/** Reading a Test sign-in's result: only the admin who started it, in its tenant, sees it. */
import { NotFound } from "../../errors.ts";
import { isUuid } from "../../db/ids.ts";
import type { TenantServiceContext } from "../../service-context.ts";
import type { TestResult } from "./pending.ts";
import type { SsoProfile } from "./protocol.ts";
import type { TestSignInResult } from "./schemas.ts";

export async function readTestResult(
  ctx: TenantServiceContext,
  input: { provider_id: string; request_id: string },
): Promise<TestSignInResult> {
  const row =
    isUuid(input.request_id) && isUuid(input.provider_id)
      ? await ctx.db.prisma.ssoSignInRequest.findFirst({
          where: {
            id: input.request_id,
            providerId: input.provider_id,
            tenantId: ctx.tenantId,
            purpose: "test",
            initiatedBy: ctx.actor.principal.userId,
          },
        })
      : null;
  if (!row) throw NotFound("Test sign-in");
  const result = row.result as TestResult | null;
  return {
    request_id: row.id,
    provider_id: row.providerId,
    status: !result ? "pending" : result.ok ? "succeeded" : "failed",
    profile: result?.ok ? profileOf(result.profile) : null,
    domain_matches: result?.ok ? result.domain_matches : null,
    reason: result && !result.ok ? (result.reason as TestSignInResult["reason"]) : null,
    detail: result && !result.ok ? result.detail : null,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * The profile as the API shows it: `idp_id` is the person's id at the IdP, as in the broker's
 * profile. A result stored before `issuer` was kept carried the issuer in `idp_id`.
 */
function profileOf(stored: SsoProfile & { idp_id?: string }): TestSignInResult["profile"] {
  const { idp_id: formerIssuer, ...profile } = stored;
  return { ...profile, idp_id: profile.id, issuer: profile.issuer ?? formerIssuer ?? "" };
}
