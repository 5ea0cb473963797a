/**
 * Second factors of a console account: authenticator apps (TOTP, RFC 6238: SHA-1, 6 digits, 30 s)
 * and single-use recovery codes. A TOTP secret is kept encrypted (server/secrets/encryption.ts), a
 * recovery code as its SHA-256 only. A code is accepted in its own 30-second step or the one on
 * either side, and once: the step of the last accepted code is kept, and a code of that step or an
 * earlier one is refused (a code seen over a shoulder or in a log cannot be replayed).
 *
 * Whoever checks a code (sign-in, step-up) has taken an attempt of the password limiter first
 * (server/auth/limits.ts), so wrong codes count and lock exactly as wrong passwords do.
 */
import { randomInt } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { type Tx, sqlIn } from "../db/client.ts";
import { type EventActor, emitForUser } from "../events/emit.ts";
import { clock } from "../clock.ts";
import { decryptSecret, encryptSecret } from "../secrets/encryption.ts";
import { hashToken } from "./tokens.ts";
import { AppError } from "../errors.ts";
import { env } from "../env.ts";
import type { Principal } from "./principal.ts";

export const TOTP_ISSUER = "Control Plane";
export const RECOVERY_CODE_COUNT = 10;
const TOTP_PERIOD_S = 30;

/** A new TOTP secret: base32, 160 bits (RFC 4226's recommended length), and its stored form. */
export function newTotpSecret(): { base32: string; encrypted: string } {
  const base32 = new Secret({ size: 20 }).base32;
  return { base32, encrypted: encryptSecret(base32) };
}

function totpOf(base32: string, label = ""): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, algorithm: "SHA1", digits: 6, period: TOTP_PERIOD_S, secret: Secret.fromBase32(base32) });
}

/** The otpauth:// URI an authenticator app reads (from the QR code). */
export function totpUri(base32: string, accountEmail: string): string {
  return totpOf(base32, accountEmail).toString();
}

/** Digits only: apps show "123 456", people paste "123-456". */
export function normalizeTotpCode(code: string): string {
  return code.replace(/[\s-]/g, "");
}

/** The time step a code belongs to, when it is right now (± one step); null when it is wrong. */
export function totpStepOf(encryptedSecret: string, code: string): number | null {
  const token = normalizeTotpCode(code);
  if (!/^\d{6}$/.test(token)) return null;
  const timestamp = clock.now().getTime();
  const totp = totpOf(decryptSecret(encryptedSecret));
  const delta = totp.validate({ token, timestamp, window: 1 });
  return delta === null ? null : totp.counter({ timestamp }) + delta;
}

const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** Ten new recovery codes as shown once (`xxxxx-xxxxx`: 10 characters of 31, about 50 bits each). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

export function recoveryCodeHash(code: string): string {
  return hashToken(`recovery:${code.toLowerCase().replace(/[\s-]/g, "")}`);
}

/** Replaces the account's recovery codes with ten new ones; answers them (shown once, never again). */
export async function replaceRecoveryCodes(tx: Tx, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await tx.userRecoveryCode.deleteMany({ where: { userId } });
  await tx.userRecoveryCode.createMany({ data: codes.map((code) => ({ userId, codeHash: recoveryCodeHash(code) })) });
  return codes;
}

/** What an account has for a second factor (confirmed factors only). */
export async function secondFactorsOf(db: Tx, userId: string): Promise<{ totp: boolean; recoveryCodes: number }> {
  const [totp, recoveryCodes] = await Promise.all([
    db.userMfaFactor.count({ where: { userId, kind: "totp", confirmedAt: { not: null } } }),
    db.userRecoveryCode.count({ where: { userId, usedAt: null } }),
  ]);
  return { totp: totp > 0, recoveryCodes };
}

export type SecondFactor = { totp_code: string } | { recovery_code: string };

export type SecondFactorCheck =
  | { ok: true; method: "totp"; factorId: string }
  | { ok: true; method: "recovery_code"; remaining: number }
  | { ok: false; method: "totp" | "recovery_code"; reason: "wrong_code" | "replayed_code" };

/**
 * Checks a second factor of the account and uses it up: a TOTP code's step is recorded (so it
 * cannot be used again), a recovery code is marked used. Run in the transaction that acts on it.
 */
export async function useSecondFactor(tx: Tx, userId: string, factor: SecondFactor): Promise<SecondFactorCheck> {
  if ("recovery_code" in factor) {
    const { count } = await tx.userRecoveryCode.updateMany({
      where: { userId, codeHash: recoveryCodeHash(factor.recovery_code), usedAt: null },
      data: { usedAt: clock.now() },
    });
    if (count === 0) return { ok: false, method: "recovery_code", reason: "wrong_code" };
    return { ok: true, method: "recovery_code", remaining: await tx.userRecoveryCode.count({ where: { userId, usedAt: null } }) };
  }
  const factors = await tx.userMfaFactor.findMany({ where: { userId, kind: "totp", confirmedAt: { not: null } } });
  for (const row of factors) {
    const step = row.secretEncrypted ? totpStepOf(row.secretEncrypted, factor.totp_code) : null;
    if (step === null) continue;
    // One statement: two requests with the same code cannot both pass.
    const { count } = await tx.userMfaFactor.updateMany({
      where: { id: row.id, OR: [{ lastUsedCounter: null }, { lastUsedCounter: { lt: BigInt(step) } }] },
      data: { lastUsedCounter: BigInt(step), lastUsedAt: clock.now() },
    });
    if (count === 0) return { ok: false, method: "totp", reason: "replayed_code" };
    return { ok: true, method: "totp", factorId: row.id };
  }
  return { ok: false, method: "totp", reason: "wrong_code" };
}

/**
 * Writes what a second factor's check meant: `user.mfa_challenge_failed` for a refused one,
 * `user.recovery_code_used` for a recovery code spent.
 */
export async function recordSecondFactor(
  tx: Tx,
  actor: EventActor,
  user: { id: string; email: string },
  check: SecondFactorCheck,
  during: "sign_in" | "step_up",
): Promise<void> {
  const target = { type: "user" as const, id: user.id, name: user.email };
  if (!check.ok) {
    await emitForUser(sqlIn(tx), actor, user.id, {
      type: "user.mfa_challenge_failed",
      target,
      details: { during, method: check.method, reason: check.reason },
    });
  } else if (check.method === "recovery_code") {
    await emitForUser(sqlIn(tx), actor, user.id, {
      type: "user.recovery_code_used",
      target,
      details: { during, remaining: check.remaining },
    });
  }
}

/** The field error of a refused second factor (the same words at sign-in and step-up). */
export function secondFactorRefusal(check: Extract<SecondFactorCheck, { ok: false }>): { path: string; message: string } {
  if (check.method === "recovery_code") return { path: "recovery_code", message: "is incorrect or was already used" };
  return { path: "totp_code", message: check.reason === "replayed_code" ? "was already used: wait for the next one" : "is incorrect" };
}

/**
 * Whether the platform requires this caller to have a second factor (PLATFORM_REQUIRE_MFA: the
 * console sessions of operators and support). API tokens are not concerned.
 */
export function mfaRequiredFor(principal: Principal): boolean {
  return env().PLATFORM_REQUIRE_MFA && principal.via === "session" && principal.platformRole !== null;
}

/**
 * PLATFORM_REQUIRE_MFA: platform staff whose console session has no second factor yet may manage
 * their own account (to enrol) and nothing else; every other console entry calls this.
 */
export function assertMfaEnrolled(principal: Principal): void {
  if (principal.mfaEnrolmentRequired) {
    throw new AppError(
      "mfa_enrollment_required",
      "Add a second factor on your profile first: the platform requires one for operators and support",
    );
  }
}

/** A started enrolment waits this long for its first code. */
export const MFA_PENDING_TTL_MS = 15 * 60_000;

/** Housekeeping: enrolments started and never confirmed in time (their secrets) are dropped. */
export async function purgeStalePendingFactors(db: Tx): Promise<number> {
  const { count } = await db.userMfaFactor.deleteMany({
    where: { confirmedAt: null, createdAt: { lt: new Date(clock.now().getTime() - MFA_PENDING_TTL_MS) } },
  });
  return count;
}
