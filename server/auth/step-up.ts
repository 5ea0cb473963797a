/**
 * Step-up: re-entering the password (with a code of the account's authenticator app when it has
 * one, or a recovery code instead; server/auth/mfa.ts) (or, for a session signed in through SSO, signing in again at
 * that IdP: server/sso/signin/step-up.ts) marks the caller's token (or console session) fresh for
 * 10 minutes. Five wrong passwords within 15 minutes lock step-up for that user.
 */
import { type Tx, sqlIn } from "../db/client.ts";
import type { SqlRunner } from "../db/sql.ts";
import { AppError, InvalidField, RateLimited, StepUpRequired } from "../errors.ts";
import { clock } from "../clock.ts";
import { actorOf, emitForUser } from "../events/emit.ts";
import { verifyPassword } from "./password.ts";
import { stepUpSubject, type Principal, type RequestInfo } from "./principal.ts";
import type { ServiceContext } from "../service-context.ts";
import { clearFailures, LIMITS, releaseAttempt, takeAttempt } from "./limits.ts";
import { recordSecondFactor, secondFactorRefusal, secondFactorsOf, useSecondFactor, type SecondFactor } from "./mfa.ts";

const STEP_UP_TTL_MS = 10 * 60_000;

export interface StepUpCredentials {
  password?: string;
  totp_code?: string;
  recovery_code?: string;
}

/**
 * Checks the caller's proof and marks them fresh; answers when the step-up expires. The proof is
 * the password, plus a code of the account's authenticator app when it has one (`mfa_required`
 * without it), or one of the account's recovery codes on its own. Every try takes an attempt of
 * the password limiter: wrong passwords and wrong codes lock alike.
 */
export async function stepUp({ db, actor: { principal, request } }: ServiceContext, proof: StepUpCredentials): Promise<Date> {
  const subject = stepUpSubject(principal);
  if (!subject) throw new AppError("forbidden", "Step-up needs an API token or a console session");
  const attempt = await takePasswordAttempt(db.sql, principal.userId);
  const user = await db.prisma.user.findUnique({ where: { id: principal.userId }, select: { passwordHash: true } });
  const factors = await secondFactorsOf(db.prisma, principal.userId);
  let second: SecondFactor | null = null;
  if (proof.recovery_code !== undefined) {
    second = { recovery_code: proof.recovery_code };
  } else {
    if (!(await verifyPassword(proof.password ?? "", user?.passwordHash))) {
      throw new AppError("unauthenticated", "The password is incorrect", {
        errors: [{ path: "password", message: "is incorrect" }],
        headers: { "WWW-Authenticate": 'Bearer error="insufficient_user_authentication", max_age=600' },
      });
    }
    if (proof.totp_code !== undefined) {
      if (!factors.totp) {
        // A request the account cannot use, after a right password: not a failed guess.
        await db.prisma.$transaction((tx) => releaseAttempt(tx, attempt));
        throw InvalidField("totp_code", "cannot be used: this account has no authenticator app");
      }
      second = { totp_code: proof.totp_code };
    } else if (factors.totp) {
      // The password was right: this try is not a failure, but it proves nothing on its own.
      await db.prisma.$transaction((tx) => releaseAttempt(tx, attempt));
      throw new AppError("mfa_required", "This account has an authenticator app: send totp_code with the password, or a recovery_code", {
        errors: [{ path: "totp_code", message: "is required" }],
      });
    }
  }

  const outcome = await db.prisma.$transaction(async (tx) => {
    const check = second ? await useSecondFactor(tx, principal.userId, second) : null;
    if (check)
      await recordSecondFactor(tx, actorOf(principal, request), { id: principal.userId, email: principal.email }, check, "step_up");
    if (check && !check.ok) return { refused: check } as const;
    await passwordAttemptSucceeded(tx, principal.userId, attempt);
    const method = !check ? "password" : check.method === "totp" ? "password_totp" : "recovery_code";
    return { expiresAt: await markSteppedUp(tx, principal, request, { method }), refused: null };
  });
  if (outcome.refused) {
    // The attempt taken above stays recorded: it is this failure.
    throw new AppError("unauthenticated", "The second factor is incorrect", {
      errors: [secondFactorRefusal(outcome.refused)],
      headers: { "WWW-Authenticate": 'Bearer error="insufficient_user_authentication", max_age=600' },
    });
  }
  return outcome.expiresAt;
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
  how: { method: "password" | "password_totp" | "recovery_code" } | { method: "sso"; providerId: string },
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

const FRESH_STEP_UP_MS = 2 * 60_000;

/**
 * For the gravest changes (removing an account's last second factor): a step-up made in the last
 * two minutes, not merely one still inside its 10-minute window.
 */
export async function assertFreshStepUp(db: Tx, principal: Principal): Promise<void> {
  if (principal.via === "system") return;
  const expiry = await stepUpExpiry(db, principal);
  if (!expiry || expiry.getTime() - STEP_UP_TTL_MS < clock.now().getTime() - FRESH_STEP_UP_MS) {
    throw StepUpRequired("This action needs a step-up made in the last 2 minutes: step up again, then retry");
  }
}
