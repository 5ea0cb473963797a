/** The console's signed-in user, for server components and layouts. */
import { getServerSession } from "next-auth";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { database } from "../db/client.ts";
import type { PlatformRole } from "../auth/principal.ts";
import { authOptions } from "./nextauth.ts";
import { sessionPrincipal } from "../auth/principal.ts";

export interface ConsoleUser {
  userId: string;
  email: string;
  platformRole: PlatformRole | null;
  /** Signed in through this tenant's SSO provider: the console shows and reaches it only. */
  ssoTenantId: string | null;
}

/**
 * The user behind the session cookie, read fresh from the database (so a deleted user or a
 * changed role takes effect at once), or null when signed out.
 */
export async function currentUser(): Promise<ConsoleUser | null> {
  const session = await getServerSession(authOptions());
  const user = session?.user as { id?: string; ssoTenantId?: string | null; signedInAt?: number } | undefined;
  if (!user?.id) return null;
  const db = await database();
  const principal = await sessionPrincipal(db.prisma, user.id, null, user.ssoTenantId ?? null, user.signedInAt);
  if (!principal) return null;
  return {
    userId: principal.userId,
    email: principal.email,
    platformRole: principal.platformRole,
    ssoTenantId: principal.ssoTenantId ?? null,
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

/** The signed-in user; when signed out, redirects to /login and back here afterwards. */
export async function requireUser(): Promise<ConsoleUser> {
  const user = await currentUser();
  if (user) return user;
  const back = safeCallbackPath((await headers()).get(REQUEST_PATH_HEADER));
  redirect(back ? `/login?callbackUrl=${encodeURIComponent(back)}` : "/login");
}
