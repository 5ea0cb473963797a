/**
 * Step-up: re-entering the password (or, for a session signed in through SSO, signing in again at
 * that IdP: server/sso/signin/step-up.ts) marks the caller's token (or console session) fresh for
 * 10 minutes. Five wrong passwords within 15 minutes lock step-up for that user.
 */
import { type Tx, sqlIn } from "../db/client.ts";
import type { SqlRunner } from "../db/sql.ts";
import { AppError, RateLimited, StepUpRequired } from "../errors.ts";
import { clock } from "../clock.ts";
import { actorOf, emitForUser } from "../events/emit.ts";
import { verifyPassword } from "./password.ts";
import { stepUpSubject, type Principal, type RequestInfo } from "./principal.ts";
import type { ServiceContext } from "../service-context.ts";
import { clearFailures, LIMITS, releaseAttempt, takeAttempt } from "./limits.ts";

const STEP_UP_TTL_MS = 10 * 60_000;

/** Checks the password and marks the caller fresh; answers when the step-up expires. */
export async function stepUp({ db, actor: { principal, request } }: ServiceContext, { password }: { password: string }): Promise<Date> {
  const subject = stepUpSubject(principal);
  if (!subject) throw new AppError("forbidden", "Step-up needs an API token or a console session");
  const attempt = await takePasswordAttempt(db.sql, principal.userId);
  const user = await db.prisma.user.findUnique({ where: { id: principal.userId }, select: { passwordHash: true } });
  if (!(await verifyPassword(password, user?.passwordHash))) {
    throw new AppError("unauthenticated", "The password is incorrect", {
      errors: [{ path: "password", message: "is incorrect" }],
      headers: { "WWW-Authenticate": 'Bearer error="insufficient_user_authentication", max_age=600' },
    });
  }

  return db.prisma.$transaction(async (tx) => {
    await passwordAttemptSucceeded(tx, principal.userId, attempt);
    return markSteppedUp(tx, principal, request, { method: "password" });
  });
}

/**
 * Takes one password check of a signed-in user (step-up, password change: both re-check the
 * password of someone who already holds a session or token, so they share one lockout); throws
 * 429 when five wrong ones fell within 15 minutes. A wrong password leaves the attempt recorded.
 */
export async function takePasswordAttempt(sql: SqlRunner, userId: string): Promise<{ ids: string[] }> {
  const attempt = await takeAttempt(sql, [{ limit: LIMITS.stepUp, key: userId }]);
  if (!attempt.ok) {
    const minutes = Math.ceil(attempt.retryAfterSeconds / 60);
    throw RateLimited(`Too many wrong passwords: password checks are locked for ${minutes} more minute(s)`, attempt.retryAfterSeconds);
  }
  return attempt;
}

/** The password was right: the attempt and earlier failures no longer count. */
export async function passwordAttemptSucceeded(tx: Tx, userId: string, attempt: { ids: string[] }): Promise<void> {
  await releaseAttempt(tx, attempt);
  await clearFailures(tx, LIMITS.stepUp, userId);
}

/**
 * Marks the caller fresh for 10 minutes and writes `user.step_up` (how: `method`, and the SSO
 * provider for an SSO step-up). Every way of stepping up ends here; answers the expiry.
 */
export async function markSteppedUp(
  tx: Tx,
  principal: Principal,
  request: RequestInfo,
  how: { method: "password" } | { method: "sso"; providerId: string },
): Promise<Date> {
  const subject = stepUpSubject(principal);
  if (!subject) throw new AppError("forbidden", "Step-up needs an API token or a console session");
  const expiresAt = new Date(clock.now().getTime() + STEP_UP_TTL_MS);
  await tx.stepUp.upsert({
    where: { subject },
    create: { subject, userId: principal.userId, expiresAt },
    update: { expiresAt },
  });
  await emitForUser(sqlIn(tx), actorOf(principal, request), principal.userId, {
    type: "user.step_up",
    target: { type: "user", id: principal.userId, name: principal.email },
    details: {
      via: principal.via,
      method: how.method,
      ...(how.method === "sso" ? { provider_id: how.providerId } : {}),
      expires_at: expiresAt.toISOString(),
    },
  });
  return expiresAt;
}

/** When the caller's step-up expires, or null if it has none that is still fresh. */
export async function stepUpExpiry(db: Tx, principal: Principal): Promise<Date | null> {
  const subject = stepUpSubject(principal);
  if (!subject) return null;
  const row = await db.stepUp.findUnique({ where: { subject } });
  return row && row.expiresAt > clock.now() ? row.expiresAt : null;
}

/** Throws step_up_required unless the caller stepped up in the last 10 minutes. */
export async function assertSteppedUp(db: Tx, principal: Principal): Promise<void> {
  if (principal.via === "system") return;
  // The admin who made the setup link stepped up to do so; the link is the IT admin's credential.
  if (principal.setupLink) return;
  if (!(await stepUpExpiry(db, principal))) throw StepUpRequired();
}
