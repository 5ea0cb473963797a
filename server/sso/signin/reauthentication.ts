/**
 * Whether the IdP really re-authenticated the person for a step-up. Asking for it (OIDC
 * `prompt=login` + `max_age=0`, SAML `ForceAuthn`) is only a request: an IdP may answer from its
 * own session all the same. What it signs about when the person authenticated (OIDC `auth_time`,
 * SAML `AuthnInstant`) must fall within the step-up: after it began, and not later than now, each
 * with SSO_CLOCK_SKEW_SECONDS. Its own module so both protocol halves can use it without a cycle.
 */
import { clock } from "../../clock.ts";
import { env } from "../../env.ts";
import { SsoRefused } from "./protocol.ts";

/** The refusal when `authenticatedAt` does not prove a sign-in within the step-up begun at `startedAt`; else null. */
export function reauthenticationRefusal(startedAt: Date, authenticatedAt: Date | null): SsoRefused | null {
  if (!authenticatedAt) {
    return new SsoRefused("not_reauthenticated", "the identity provider did not say when the person authenticated");
  }
  const skewMs = env().SSO_CLOCK_SKEW_SECONDS * 1000;
  // Whole seconds: OIDC's auth_time has no fraction, so a sign-in in the same second as the start counts.
  const earliest = Math.floor(startedAt.getTime() / 1000) * 1000 - skewMs;
  if (authenticatedAt.getTime() < earliest) {
    return new SsoRefused("not_reauthenticated", "the identity provider reused an earlier sign-in instead of asking again");
  }
  if (authenticatedAt.getTime() > clock.now().getTime() + skewMs) {
    return new SsoRefused("clock", "the identity provider says the person authenticated in the future");
  }
  return null;
}
