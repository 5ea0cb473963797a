import { MFA_FAILED, MFA_REQUIRED, RATE_LIMITED_PREFIX } from "@/server/account/schemas";

/** What the sign-in page says when it fails; shared by the page (server) and the form (client). */
export const WRONG_CREDENTIALS = "Email or password is incorrect";
export const SIGN_IN_FAILED = "Sign-in failed. Try again.";

/** "Too many attempts. Try again in 15 minutes." for a rate-limited sign-in, else null. */
function rateLimitedMessage(code: string): string | null {
  if (!code.startsWith(RATE_LIMITED_PREFIX)) return null;
  const seconds = Number(code.slice(RATE_LIMITED_PREFIX.length));
  const minutes = Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds / 60) : 15;
  return `Too many attempts. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`;
}

/** The message for next-auth's `error` (from signIn's result, or the `error` it puts on /login). */
export function signInErrorMessage(code: string | undefined | null): string | null {
  if (!code) return null;
  if (code === "CredentialsSignin") return WRONG_CREDENTIALS;
  if (code === MFA_REQUIRED) return "Enter the code from your authenticator app";
  if (code === MFA_FAILED) return "That code is incorrect or was already used. Try the next one.";
  return rateLimitedMessage(code) ?? SIGN_IN_FAILED;
}

/** What the login page says when an SSO sign-in came back refused (`/login?sso_error=<reason>`). */
export function ssoErrorMessage(reason: string | undefined | null): string | null {
  if (!reason) return null;
  switch (reason) {
    case "unknown_domain":
      return "No SSO sign-in is set up for that email domain. Sign in with your password, or ask your administrator.";
    case "disabled":
      return "Your organisation's SSO sign-in is turned off. Ask your administrator.";
    case "state":
    case "expired_request":
    case "unknown_request":
      return "That sign-in took too long or was started in another browser. Start again.";
    case "idp_error":
      return "Your identity provider did not sign you in. Try again, or ask your administrator.";
    case "domain_not_verified":
      return "Your organisation has not verified this email domain yet, so SSO sign-in cannot use it. Ask your administrator.";
    case "deprovisioned":
      return "Your organisation's directory has deactivated your account. Ask your administrator.";
    case "not_a_member":
      return "You are not a member of this organisation yet. Ask your administrator for an invitation.";
    case "domain_mismatch":
    case "no_email":
    case "email_not_verified":
      return "Your identity provider signed you in with an address this organisation does not accept. Ask your administrator.";
    default:
      return `SSO sign-in failed (${reason.replace(/[^a-z_]/g, "").slice(0, 40)}). Try again, or ask your administrator.`;
  }
}

/** What an SSO popup (step-up, or signing in again) says when its sign-in came back refused. */
export function popupErrorMessage(purpose: "stepup" | "signin", reason: string): string {
  switch (reason) {
    case "different_user":
      return "Your identity provider signed in someone else. Sign in there as yourself to confirm.";
    case "not_reauthenticated":
      return "Your identity provider did not ask you to sign in again. Try again.";
    default:
      return purpose === "stepup"
        ? `Not confirmed (${reason}). Try again, or ask your administrator.`
        : (ssoErrorMessage(reason) ?? "SSO sign-in failed. Try again.");
  }
}
