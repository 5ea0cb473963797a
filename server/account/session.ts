/** The console's signed-in user, for server components and layouts. */
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { database } from "../db/client.ts";
import type { PlatformRole } from "../auth/principal.ts";
import { sessionPrincipal } from "../auth/sessions.ts";
import { readSessionCookies } from "../auth/session-token.ts";

export interface ConsoleUser {
  userId: string;
  email: string;
  platformRole: PlatformRole | null;
  /** Signed in through this tenant's SSO provider: the console shows and reaches it only. */
  ssoTenantId: string | null;
  /** PLATFORM_REQUIRE_MFA: platform staff without a second factor; the console sends them to enrol. */
  mfaEnrolmentRequired: boolean;
}

/**
 * The user behind the session cookie, read fresh from the database with the session's row (so a
 * deleted user, a changed role or an ended session takes effect at once), or null when signed out. The cookie is read as the tRPC
 * context reads it (server/auth/session-token.ts), so pages and procedures agree on who is in.
 */
export async function currentUser(): Promise<ConsoleUser | null> {
  const cookieJar = await cookies();
  const session = await readSessionCookies(Object.fromEntries(cookieJar.getAll().map(({ name, value }) => [name, value])));
  if (!session) return null;
  const db = await database();
  const principal = await sessionPrincipal(db.sql, session);
  if (!principal) return null;
  return {
    userId: principal.userId,
    email: principal.email,
    platformRole: principal.platformRole,
    ssoTenantId: principal.ssoTenantId ?? null,
    mfaEnrolmentRequired: principal.mfaEnrolmentRequired ?? false,
  };
}

/**
 * A same-site path to return to after sign-in, or null. Only absolute paths on this origin are
 * accepted ("/tenants?x=1"), never "//host" or "/\host", so the parameter cannot redirect away.
 */
export function safeCallbackPath(value: string | null | undefined): string | null {
  // Browsers drop tabs and newlines and read "\" as "/": "/\t/evil" would become "//evil".
  if (!value || /[\s\\]/.test(value)) return null;
  if (!value.startsWith("/") || value.startsWith("//")) return null;
  if (value.startsWith("/login") || value.startsWith("/api/")) return null;
  return value;
}

/** Set by proxy.ts on page requests: the path and query the browser asked for. */
const REQUEST_PATH_HEADER = "x-request-path";

/** Where platform staff who must enrol a second factor are sent (PLATFORM_REQUIRE_MFA). */
const MFA_ENROLMENT_PATH = "/profile";

/** The signed-in user; when signed out, redirects to /login and back here afterwards. */
export async function requireUser(): Promise<ConsoleUser> {
  const user = await currentUser();
  const path = (await headers()).get(REQUEST_PATH_HEADER);
  if (user?.mfaEnrolmentRequired && path && !path.startsWith(MFA_ENROLMENT_PATH)) redirect(`${MFA_ENROLMENT_PATH}?mfa=required`);
  if (user) return user;
  const back = safeCallbackPath(path);
  redirect(back ? `/login?callbackUrl=${encodeURIComponent(back)}` : "/login");
}
