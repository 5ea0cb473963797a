/**
 * Starting a sign-in: pick the provider (by the work email's domain for the console, by id for a
 * Test sign-in), draw the pending request, ask the protocol half for the IdP URL, store the request.
 */
import type { Database } from "../../db/client.ts";
import type { RequestInfo } from "../../auth/principal.ts";
import type { TenantServiceContext } from "../../service-context.ts";
import { getProvider } from "../service.ts";
import { loginErrorPath, recordRefusal, testResultPath } from "./refusal.ts";
import { newBinding, newPending, storePending, storeTestResult } from "./pending.ts";
import { signInProviderById, signInProviderForEmail } from "./providers.ts";
import { handlerFor, SsoRefused, type SignInProvider } from "./protocol.ts";
import { cookieBinding, userBinding } from "./binding.ts";
import "./handlers.ts";

export interface Started {
  /** Where to send the browser: the IdP, or back to the login page with the reason. */
  location: string;
  /** The browser binding cookie value to set, when a request was stored. */
  binding: string | null;
}

/** "Continue with SSO" on the login page. Refusals are audited and shown as a reason on /login. */
export async function beginConsoleSignIn(db: Database, request: RequestInfo, email: string, returnTo: string | null): Promise<Started> {
  let provider: SignInProvider | null = null;
  try {
    provider = await signInProviderForEmail(db, email);
    const pending = newPending({
      tenantId: provider.tenantId,
      providerId: provider.id,
      protocol: provider.protocol,
      purpose: "console",
      returnTo,
      loginHint: email,
    });
    const location = await handlerFor(provider.protocol).begin(provider, pending);
    const binding = newBinding();
    await storePending(db, pending, cookieBinding(binding));
    return { location, binding };
  } catch (error) {
    if (!(error instanceof SsoRefused)) throw error;
    await recordRefusal(db, request, error, {
      tenantId: provider?.tenantId ?? null,
      providerId: provider?.id ?? null,
      purpose: "console",
      email,
    });
    return { location: loginErrorPath(error.reason), binding: null };
  }
}

/**
 * An admin's Test sign-in: the flow runs against the provider (enabled or not) and its result page
 * shows the profile or the reason. A failure before the IdP (metadata, configuration) is a result
 * too. Bound to the admin's user: only their console session can bring it back.
 */
export async function beginTestSignIn(
  ctx: TenantServiceContext,
  providerId: string,
  /** A setup link's test: bound to the browser's binding cookie rather than a user, and its result shown on `returnTo`. */
  setup?: { binding: string; returnTo: string },
): Promise<{ url: string; result_url: string; request_id: string }> {
  await getProvider(ctx, providerId); // 404 outside the tenant
  const provider = await signInProviderById(ctx.db, providerId);
  const pending = newPending({
    tenantId: provider.tenantId,
    providerId: provider.id,
    protocol: provider.protocol,
    purpose: "test",
    initiatedBy: ctx.actor.principal.userId,
    returnTo: setup?.returnTo ?? null,
  });
  let url: string | null = null;
  let refusal: SsoRefused | null = null;
  try {
    url = await handlerFor(provider.protocol).begin(provider, pending);
  } catch (error) {
    if (!(error instanceof SsoRefused)) throw error;
    refusal = error;
  }
  await storePending(ctx.db, pending, setup ? cookieBinding(setup.binding) : userBinding(ctx.actor.principal.userId));
  const resultUrl = testResultPath(pending);
  if (refusal) {
    await recordRefusal(ctx.db, ctx.actor.request, refusal, { tenantId: provider.tenantId, providerId: provider.id, purpose: "test" });
    await storeTestResult(ctx.db, pending.id, { ok: false, reason: refusal.reason, detail: refusal.detail });
  }
  return { url: url ?? resultUrl, result_url: resultUrl, request_id: pending.id };
}
