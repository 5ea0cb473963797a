import { RATE_LIMITED_PREFIX } from "@/server/account/schemas";

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
  return rateLimitedMessage(code) ?? SIGN_IN_FAILED;
}
