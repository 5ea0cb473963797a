/**
 * "Forgot password": a single-use link, valid 30 minutes, mailed to the account's address. The
 * request answers the same, in about the same time, whether or not the email has an account (the
 * mail is sent in the background). Setting the new password consumes the link, kills the user's
 * other reset links, console sessions and step-ups.
 */
import { type Database, sqlIn } from "../db/client.ts";
import { AppError, RateLimited } from "../errors.ts";
import { clock } from "../clock.ts";
import { actorOf, emitForUser } from "../events/emit.ts";
import type { RequestInfo } from "../auth/principal.ts";
import { clearFailures, LIMITS, takeAttempt } from "../auth/limits.ts";
import { consoleLink, sendMailInBackground } from "../mail/mailer.ts";
import { hashLinkToken, newLinkToken } from "../auth/link-tokens.ts";
import { hashPassword } from "../auth/password.ts";
import { endSessions } from "../auth/sessions.ts";
import { normalizeEmail } from "./users.ts";
import { PASSWORD_RESET_TTL_MINUTES } from "./schemas.ts";

const TTL_MS = PASSWORD_RESET_TTL_MINUTES * 60_000;

export async function requestPasswordReset(db: Database, request: RequestInfo, email: string): Promise<void> {
  const normalized = normalizeEmail(email);
  const ip = request.ip ?? "unknown";
  // Every request counts (each may send a mail), taken atomically so parallel requests cannot mail-bomb.
  const attempt = await takeAttempt(db.sql, [
    { limit: LIMITS.resetEmail, key: normalized },
    { limit: LIMITS.resetIp, key: ip },
  ]);
  if (!attempt.ok) throw RateLimited("Too many password reset requests: try again later", attempt.retryAfterSeconds);

  const { token, hash } = newLinkToken();
  const user = await db.prisma.$transaction(async (tx) => {
    const found = await tx.user.findUnique({ where: { email: normalized }, select: { id: true, email: true } });
    if (found)
      await tx.passwordReset.create({ data: { userId: found.id, tokenHash: hash, expiresAt: new Date(clock.now().getTime() + TTL_MS) } });
    return found;
  });
  if (!user) return;
  sendMailInBackground({
    to: user.email,
    subject: "Reset your Control Plane password",
    text:
      `Someone (hopefully you) asked to reset the password of ${user.email} on Control Plane.\n\n` +
      `Set a new password:\n${consoleLink("/reset-password", token)}\n\n` +
      `The link works once, for ${PASSWORD_RESET_TTL_MINUTES} minutes. If you did not ask, ignore this message: your password stays as it is.\n`,
  });
}

/** The reset link `row` if it may still be used, else the 404 that says why. */
function usableReset<T extends { usedAt: Date | null; expiresAt: Date }>(row: T | null, now: Date): T {
  if (!row || row.usedAt) throw new AppError("not_found", "This reset link is not valid or has already been used: ask for a new one");
  if (row.expiresAt <= now) throw new AppError("not_found", "This reset link has expired: ask for a new one");
  return row;
}

/** Sets the new password through a reset link; returns the account's email (to sign in with). */
export async function completePasswordReset(
  db: Database,
  request: RequestInfo,
  input: { token: string; password: string; revoke_tokens?: boolean },
): Promise<{ email: string; sessions_ended: number; tokens_revoked: number }> {
  const now = clock.now();
  const tokenHash = hashLinkToken(input.token);
  // The link is looked up before the password is hashed: scrypt costs ~50 ms of CPU, and an
  // anonymous caller with bogus links must not be able to spend it at will.
  usableReset(await db.prisma.passwordReset.findUnique({ where: { tokenHash }, select: { usedAt: true, expiresAt: true } }), now);
  const passwordHash = await hashPassword(input.password);
  return db.prisma.$transaction(async (tx) => {
    const reset = usableReset(await tx.passwordReset.findUnique({ where: { tokenHash }, include: { user: true } }), now);
    // Single use even under concurrent submits: only one update finds used_at still null.
    const claimed = await tx.passwordReset.updateMany({ where: { id: reset.id, usedAt: null }, data: { usedAt: now } });
    if (claimed.count === 0) throw new AppError("not_found", "This reset link is not valid or has already been used: ask for a new one");
    await tx.passwordReset.deleteMany({ where: { userId: reset.userId, id: { not: reset.id } } });
    await tx.user.update({ where: { id: reset.userId }, data: { passwordHash } });
    // Whoever knew the old password may hold a session or a step-up: both end now, tokens on request.
    const sessionsEnded = await endSessions(sqlIn(tx), { userId: reset.userId }, "password_reset");
    await tx.stepUp.deleteMany({ where: { userId: reset.userId } });
    const tokensRevoked = input.revoke_tokens
      ? (await tx.apiToken.updateMany({ where: { userId: reset.userId, revokedAt: null }, data: { revokedAt: now } })).count
      : 0;
    await clearFailures(tx, LIMITS.loginEmail, reset.user.email);
    const principal = {
      userId: reset.userId,
      email: reset.user.email,
      platformRole: null,
      via: "session" as const,
      token: null,
      sessionId: null,
    };
    await emitForUser(sqlIn(tx), actorOf(principal, request), reset.userId, {
      type: "user.password_reset",
      target: { type: "user", id: reset.userId, name: reset.user.email },
      details: { email: reset.user.email, sessions_ended: sessionsEnded, tokens_revoked: tokensRevoked },
    });
    return { email: reset.user.email, sessions_ended: sessionsEnded, tokens_revoked: tokensRevoked };
  });
}
