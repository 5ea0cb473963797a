/**
 * Where a sign-in ends other than in the console: a refused attempt is audited (`sso.login_failed`,
 * the reason and a safe detail, never assertion content or tokens) and sent to the login page with
 * its reason; a Test sign-in ends on its result page. Every step of sign-in refuses this way: begin,
 * callback, completion, step-up and the OAuth broker.
 */
import type { Database } from "../../db/client.ts";
import type { RequestInfo } from "../../auth/principal.ts";
import { emitEvent, type EventActor } from "../../events/emit.ts";
import { log } from "../../log.ts";
import type { SsoRefused } from "./protocol.ts";

/** A Test sign-in's result page: the console's, or where a setup link's guided flow asked for it. */
export const testResultPath = (p: { tenantId: string; providerId: string; id: string; returnTo: string | null }) =>
  p.returnTo ?? `/tenants/${p.tenantId}/sso/${p.providerId}/test/${p.id}`;

export const loginErrorPath = (reason: string) => `/login?sso_error=${encodeURIComponent(reason)}`;

const anonymous = (request: RequestInfo, email: string | null = null): EventActor => ({
  id: null,
  email,
  ip: request.ip,
  userAgent: request.userAgent,
});

/** Audits a refused attempt in the provider's tenant (or as a platform event when none is known). */
export async function recordRefusal(
  db: Database,
  request: RequestInfo,
  refusal: SsoRefused,
  where: { tenantId: string | null; providerId: string | null; purpose: string | null; email?: string | null },
): Promise<void> {
  await emitEvent(db.sql, anonymous(request, where.email ?? null), {
    type: "sso.login_failed",
    tenantId: where.tenantId,
    target: where.providerId ? { type: "sso_provider", id: where.providerId } : undefined,
    details: {
      reason: refusal.reason,
      detail: refusal.detail,
      provider_id: where.providerId,
      purpose: where.purpose,
      ...(where.email ? { email: where.email } : {}),
    },
  });
  log.info("sso sign-in refused", { reason: refusal.reason, provider_id: where.providerId ?? undefined, request_id: request.requestId });
}
