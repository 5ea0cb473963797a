/** Looking users up for sign-in and for requests. */
import type { Tx } from "../db/client.ts";
import { asPlatformRole, type Principal } from "./principal.ts";
import { verifyPassword } from "./password.ts";

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The user for an email and password, or null (same time spent either way). */
export async function checkCredentials(db: Tx, email: string, password: string) {
  const user = await db.user.findUnique({ where: { email: normalizeEmail(email) } });
  const ok = await verifyPassword(password, user?.passwordHash);
  return ok && user ? user : null;
}

/** The principal of a console session, from the user id its cookie carries. */
export async function sessionPrincipal(db: Tx, userId: string): Promise<Principal | null> {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user) return null;
  return {
    userId: user.id,
    email: user.email,
    platformRole: asPlatformRole(user.platformRole),
    via: "session",
    token: null,
  };
}
