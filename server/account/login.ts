/**
 * Console sign-in: email + password, limited per email and per IP (in Postgres, so the limits
 * hold across instances; each attempt is taken before the password is checked, so parallel
 * guesses cannot outrun them), recording `user.login` and `user.login_failed`. An account with an
 * authenticator app needs its code too (server/auth/mfa.ts); SSO sign-ins never come here.
 */
import { type Database, sqlIn } from "../db/client.ts";
import { actorOf, emitForUser } from "../events/emit.ts";
import { checkCredentials, normalizeEmail } from "./users.ts";
import { clearFailures, LIMITS, releaseAttempt, takeAttempt } from "../auth/limits.ts";
import type { RequestInfo } from "../auth/principal.ts";
import { recordSecondFactor, secondFactorsOf, useSecondFactor, type SecondFactor } from "../auth/mfa.ts";

export type LoginResult =
  | { ok: true; user: { id: string; email: string; name: string | null } }
  | { ok: false; reason: "invalid" }
  /** The password was right and the account has a second factor: ask for it (no code was sent). */
  | { ok: false; reason: "mfa_required" }
  /** The password was right, the second factor was not (wrong, replayed or used code). */
  | { ok: false; reason: "mfa_failed" }
  | { ok: false; reason: "rate_limited"; retryAfterSeconds: number };

/**
 * `second`: the code the form asked for after `mfa_required`. Whether the account has a second
 * factor is told only to someone who gave its password; a wrong code counts as a wrong password.
 */
export async function signIn(
  db: Database,
  request: RequestInfo,
  email: string,
  password: string,
  second?: SecondFactor,
): Promise<LoginResult> {
  const normalized = normalizeEmail(email).slice(0, 254);
  const ip = request.ip ?? "unknown";
  const attempt = await takeAttempt(db.sql, [
    { limit: LIMITS.loginEmail, key: normalized },
    { limit: LIMITS.loginIp, key: ip },
  ]);
  const known = await db.prisma.user.findUnique({ where: { email: normalized }, select: { id: true, email: true } });
  const anonymous = { userId: known?.id ?? null, email: normalized };
  const anonymousActor = { id: anonymous.userId, email: normalized, ip: request.ip, userAgent: request.userAgent };

  if (!attempt.ok) {
    await db.prisma.$transaction((tx) =>
      emitForUser(sqlIn(tx), anonymousActor, anonymous.userId, {
        type: "user.login_failed",
        target: anonymous.userId ? { type: "user", id: anonymous.userId, name: normalized } : undefined,
        details: { email: normalized, reason: "rate_limited" },
      }),
    );
    return { ok: false, reason: "rate_limited", retryAfterSeconds: attempt.retryAfterSeconds };
  }

  const user = await checkCredentials(db.prisma, normalized, password);
  if (!user) {
    // The attempt taken above stays recorded: it is this failure.
    await db.prisma.$transaction(async (tx) => {
      await emitForUser(sqlIn(tx), anonymousActor, anonymous.userId, {
        type: "user.login_failed",
        target: anonymous.userId ? { type: "user", id: anonymous.userId, name: normalized } : undefined,
        details: { email: normalized, reason: known ? "wrong_password" : "unknown_user" },
      });
    });
    return { ok: false, reason: "invalid" };
  }

  const factors = await secondFactorsOf(db.prisma, user.id);
  if (factors.totp && !second) {
    // The password was right: not a failure, but not a sign-in either until the code comes.
    await db.prisma.$transaction((tx) => releaseAttempt(tx, attempt));
    return { ok: false, reason: "mfa_required" };
  }

  const principal = { userId: user.id, email: user.email, platformRole: null, via: "session" as const, token: null, sessionId: null };
  const actor = actorOf(principal, request);
  const signedIn = await db.prisma.$transaction(async (tx) => {
    if (factors.totp && second) {
      const check = await useSecondFactor(tx, user.id, second);
      await recordSecondFactor(tx, actor, user, check, "sign_in");
      // The attempt taken above stays recorded: a wrong code is this failure.
      if (!check.ok) return false;
    }
    await releaseAttempt(tx, attempt);
    await clearFailures(tx, LIMITS.loginEmail, normalized);
    await emitForUser(sqlIn(tx), actor, user.id, {
      type: "user.login",
      target: { type: "user", id: user.id, name: user.email },
      details: { method: "password" },
    });
    return true;
  });
  if (!signedIn) return { ok: false, reason: "mfa_failed" };
  return { ok: true, user: { id: user.id, email: user.email, name: user.name } };
}
