/**
 * Step-up through SSO, for console sessions signed in through an SSO provider (SSO-only users have
 * no password to re-enter). The session's own provider is asked to sign the person in again, with
 * re-authentication forced (OIDC `prompt=login` + `max_age=0`, SAML `ForceAuthn="true"`); the
 * pending request (purpose "stepup") is bound to that one console session. On return, the profile
 * must be the session's person (same provider, same email and, when the session knows it, same
 * subject) and it must have authenticated within the step-up (./reauthentication.ts: OIDC
 * `auth_time`, SAML `AuthnInstant`, both required).
 * Then the session is marked fresh exactly as the password path does (server/auth/step-up.ts),
 * with `user.step_up` method "sso". Any refusal writes `sso.login_failed` and marks nothing.
 *
 * The browser runs it in a popup (components/auth/sso-popup.ts): it lands on /auth/popup-done,
 * which tells the console page and closes. API tokens keep password step-up.
 */
import { secondFactorsOf } from "../../auth/mfa.ts";
import type { Database } from "../../db/client.ts";
import { Forbidden } from "../../errors.ts";
import { markSteppedUp } from "../../auth/step-up.ts";
import type { Principal, RequestInfo } from "../../auth/principal.ts";
import type { ServiceContext } from "../../service-context.ts";
import { recordRefusal } from "./refusal.ts";
import { newPending, storePending } from "./pending.ts";
import { signInProviderById } from "./providers.ts";
import { handlerFor, SsoRefused, type PendingSignIn, type SignInOutcome, type SignInProvider } from "./protocol.ts";
import { reauthenticationRefusal } from "./reauthentication.ts";
import { sessionBinding } from "./binding.ts";
import "./handlers.ts";

/** The page a popup lands on: it tells the console page how it went, and closes. */
export const popupDonePath = (purpose: "stepup" | "signin", reason?: string) =>
  `/auth/popup-done?for=${purpose}${reason ? `&error=${encodeURIComponent(reason)}` : ""}`;

/** The console session an SSO callback arrived with (from its next-auth JWT). */
export interface CallbackSession {
  userId: string;
  sessionId: string | null;
  providerId: string | null;
  subject: string | null;
}

export interface StepUpMethods {
  password: boolean;
  totp: boolean;
  recovery_codes: number;
  sso: { provider_id: string; name: string } | null;
}

/** How this caller can step up: a password when the user has one; SSO when the session came from a provider. */
export async function stepUpMethods({ db, actor: { principal } }: ServiceContext): Promise<StepUpMethods> {
  const user = await db.prisma.user.findUnique({ where: { id: principal.userId }, select: { passwordHash: true } });
  const provider = principal.ssoProviderId
    ? await db.prisma.ssoProvider.findUnique({ where: { id: principal.ssoProviderId }, select: { id: true, name: true, enabled: true } })
    : null;
  const factors = await secondFactorsOf(db.prisma, principal.userId);
  return {
    password: Boolean(user?.passwordHash),
    totp: factors.totp,
    recovery_codes: factors.recoveryCodes,
    sso: principal.sessionId && provider?.enabled ? { provider_id: provider.id, name: provider.name } : null,
  };
}

/**
 * Starts an SSO step-up for the caller's console session: the URL of its IdP. Only a session signed
 * in through SSO may, and only through the provider it was signed in through (`provider_id`, when
 * given, must be that one): a password user cannot borrow a provider, of any tenant.
 */
export async function beginSsoStepUp(
  { db, actor: { principal, request } }: ServiceContext,
  input: { provider_id?: string },
): Promise<string> {
  if (principal.via !== "session" || !principal.sessionId) {
    throw Forbidden("Step-up through SSO is for console sessions; API tokens step up with a password (POST /api/v1/auth/step-up)");
  }
  if (!principal.ssoProviderId || (input.provider_id !== undefined && input.provider_id !== principal.ssoProviderId)) {
    throw Forbidden("Step-up through SSO goes through the provider this session was signed in with; confirm with your password instead");
  }
  const provider = await signInProviderById(db, principal.ssoProviderId).catch(() => null);
  if (!provider?.enabled) throw Forbidden("The SSO provider this session was signed in with is no longer available");
  const user = await db.prisma.user.findUniqueOrThrow({ where: { id: principal.userId }, select: { email: true } });
  const pending = newPending({
    tenantId: provider.tenantId,
    providerId: provider.id,
    protocol: provider.protocol,
    purpose: "stepup",
    returnTo: popupDonePath("stepup"),
    initiatedBy: principal.userId,
    loginHint: user.email,
  });
  try {
    const url = await handlerFor(provider.protocol).begin(provider, pending);
    await storePending(db, pending, sessionBinding(principal.sessionId));
    return url;
  } catch (error) {
    if (!(error instanceof SsoRefused)) throw error;
    await recordRefusal(db, request, error, { tenantId: provider.tenantId, providerId: provider.id, purpose: "stepup", email: user.email });
    return popupDonePath("stepup", error.reason);
  }
}

/** The refusal, when the profile is not the session's person re-authenticated just now; else null. */
async function refusalOf(
  db: Database,
  pending: PendingSignIn,
  provider: SignInProvider,
  outcome: SignInOutcome,
  session: CallbackSession | null,
): Promise<SsoRefused | null> {
  if (!outcome.ok) return outcome.error;
  if (!provider.enabled) return new SsoRefused("disabled", "this SSO provider is disabled");
  if (!session || session.userId !== pending.initiatedBy || session.providerId !== provider.id || pending.providerId !== provider.id) {
    return new SsoRefused("unknown_request", "the step-up came back to another session or provider");
  }
  const { profile } = outcome;
  const user = await db.prisma.user.findUnique({ where: { id: session.userId }, select: { email: true } });
  if (!user || profile.email !== user.email.toLowerCase() || (session.subject !== null && profile.id !== session.subject)) {
    return new SsoRefused("different_user", "the identity provider signed in someone other than the person whose session asked");
  }
  // OIDC: a step-up asks with max_age=0, and then the ID token MUST carry auth_time (OpenID Connect
  // Core 3.1.2.1): without it nothing shows anyone signed in again, so it is refused. SAML's
  // AuthnInstant is checked by the SAML half itself (server/sso/saml/handler.ts).
  if (provider.protocol !== "oidc") return null;
  const authTime = profile.raw_attributes.auth_time;
  if (typeof authTime !== "number") {
    return new SsoRefused("not_reauthenticated", "the identity provider did not say when the person signed in (no auth_time)");
  }
  return reauthenticationRefusal(pending.createdAt, new Date(authTime * 1000));
}

/** The end of an SSO step-up (called by the callback for purpose "stepup"): where the popup goes. */
export async function completeSsoStepUp(
  db: Database,
  pending: PendingSignIn,
  provider: SignInProvider,
  outcome: SignInOutcome,
  request: RequestInfo,
  session: CallbackSession | null,
): Promise<string> {
  const refusal = await refusalOf(db, pending, provider, outcome, session);
  if (refusal || !session?.sessionId) {
    const reason = refusal ?? new SsoRefused("unknown_request", "the step-up has no console session");
    const email = outcome.ok ? outcome.profile.email : null;
    await recordRefusal(db, request, reason, { tenantId: provider.tenantId, providerId: provider.id, purpose: "stepup", email });
    return popupDonePath("stepup", reason.reason);
  }
  const user = await db.prisma.user.findUniqueOrThrow({ where: { id: session.userId }, select: { email: true } });
  const principal: Principal = {
    userId: session.userId,
    email: user.email,
    platformRole: null,
    via: "session",
    token: null,
    sessionId: session.sessionId,
    ssoTenantId: provider.tenantId,
    ssoProviderId: provider.id,
  };
  await db.prisma.$transaction((tx) => markSteppedUp(tx, principal, request, { method: "sso", providerId: provider.id }));
  return popupDonePath("stepup");
}
