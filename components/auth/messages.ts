/** What the sign-in page says when it fails; shared by the page (server) and the form (client). */
export const WRONG_CREDENTIALS = "Email or password is incorrect";
export const SIGN_IN_FAILED = "Sign-in failed. Try again.";

/** The message for the `error` next-auth puts on /login when it sends someone back here. */
export function signInErrorMessage(code: string | undefined): string | null {
  if (!code) return null;
  return code === "CredentialsSignin" ? WRONG_CREDENTIALS : SIGN_IN_FAILED;
}
