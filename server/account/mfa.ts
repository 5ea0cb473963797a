/**
 * The account's second factors on its profile: add an authenticator app (start: a secret and its
 * QR code, kept pending; confirm: its first code makes it count), list, rename and remove them, and
 * the recovery codes (ten, single-use, issued with the first factor and shown once). A user reaches
 * only their own factors: another's id is a 404. How codes are checked: server/auth/mfa.ts.
 */
import QRCode from "qrcode";
import { sqlIn } from "../db/client.ts";
import { clock } from "../clock.ts";
import { AppError, Conflict, InvalidField, NotFound } from "../errors.ts";
import { actorOf, emitForUser } from "../events/emit.ts";
import { MFA_PENDING_TTL_MS, mfaRequiredFor, newTotpSecret, replaceRecoveryCodes, totpStepOf, totpUri } from "../auth/mfa.ts";
import { assertFreshStepUp, assertSteppedUp } from "../auth/step-up.ts";
import type { ServiceContext } from "../service-context.ts";
import type { MfaFactor, MfaStatus, TotpEnrolment } from "./schemas.ts";

interface FactorRow {
  id: string;
  kind: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const factorOf = (row: FactorRow): MfaFactor => ({
  id: row.id,
  kind: "totp",
  name: row.name,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
});

export async function mfaStatus({ db, actor: { principal } }: ServiceContext): Promise<MfaStatus> {
  const [rows, recovery, user] = await Promise.all([
    db.prisma.userMfaFactor.findMany({ where: { userId: principal.userId, confirmedAt: { not: null } }, orderBy: { createdAt: "asc" } }),
    db.prisma.userRecoveryCode.count({ where: { userId: principal.userId, usedAt: null } }),
    db.prisma.user.findUnique({ where: { id: principal.userId }, select: { passwordHash: true } }),
  ]);
  return {
    factors: rows.map(factorOf),
    recovery_codes_remaining: recovery,
    enrollment_required: mfaRequiredFor(principal) && rows.length === 0,
    available: Boolean(user?.passwordHash),
  };
}

/** Starts adding an authenticator app (after a step-up): the secret, shown now and never again. */
export async function startTotp({ db, actor: { principal } }: ServiceContext, { name }: { name?: string }): Promise<TotpEnrolment> {
  const user = await db.prisma.user.findUnique({ where: { id: principal.userId }, select: { passwordHash: true, email: true } });
  if (!user) throw NotFound("User");
  if (!user.passwordHash) {
    throw new AppError(
      "invalid_request",
      "Second factors protect password sign-in: this account signs in through SSO, whose IdP is its factor",
    );
  }
  await assertSteppedUp(db.prisma, principal);
  const secret = newTotpSecret();
  const factor = await db.prisma.$transaction(async (tx) => {
    // One enrolment at a time: an unfinished earlier one is dropped.
    await tx.userMfaFactor.deleteMany({ where: { userId: principal.userId, confirmedAt: null } });
    return tx.userMfaFactor.create({
      data: { userId: principal.userId, kind: "totp", name: name ?? "Authenticator app", secretEncrypted: secret.encrypted },
    });
  });
  const uri = totpUri(secret.base32, user.email);
  const svg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 1 });
  return { factor_id: factor.id, secret: secret.base32, uri, qr_code: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}

/**
 * Confirms an enrolment with the app's first code: the factor counts from now on, and when it is
 * the account's first, its ten recovery codes are made and answered (the only time they are shown).
 */
export async function confirmTotp(
  { db, actor: { principal, request } }: ServiceContext,
  { factor_id, code, name }: { factor_id: string; code: string; name?: string },
): Promise<{ factor: MfaFactor; recovery_codes: string[] | null }> {
  const pending = await db.prisma.userMfaFactor.findFirst({
    where: {
      id: uuidOrNone(factor_id),
      userId: principal.userId,
      confirmedAt: null,
      createdAt: { gt: new Date(clock.now().getTime() - MFA_PENDING_TTL_MS) },
    },
  });
  if (!pending?.secretEncrypted) throw NotFound("Pending authenticator app");
  const step = totpStepOf(pending.secretEncrypted, code);
  if (step === null) throw InvalidField("code", "is incorrect: enter the code your app shows now");
  return db.prisma.$transaction(async (tx) => {
    const earlier = await tx.userMfaFactor.count({ where: { userId: principal.userId, confirmedAt: { not: null } } });
    const factor = await tx.userMfaFactor.update({
      where: { id: pending.id },
      data: { confirmedAt: clock.now(), lastUsedCounter: BigInt(step), ...(name ? { name } : {}) },
    });
    const recoveryCodes = earlier === 0 ? await replaceRecoveryCodes(tx, principal.userId) : null;
    await emitForUser(sqlIn(tx), actorOf(principal, request), principal.userId, {
      type: "user.mfa_enrolled",
      target: { type: "user", id: principal.userId, name: principal.email },
      details: { factor_id: factor.id, kind: factor.kind, name: factor.name, recovery_codes_issued: recoveryCodes !== null },
    });
    return { factor: factorOf(factor), recovery_codes: recoveryCodes };
  });
}

export async function renameFactor(
  { db, actor: { principal } }: ServiceContext,
  { factor_id, name }: { factor_id: string; name: string },
): Promise<MfaFactor> {
  const factor = await ownFactor({ db }, principal.userId, factor_id);
  return factorOf(await db.prisma.userMfaFactor.update({ where: { id: factor.id }, data: { name } }));
}

/**
 * Removes a factor (after a step-up; the account's last one needs a step-up of the last two
 * minutes, and takes the recovery codes with it). Where the platform requires a second factor,
 * the last one cannot be removed.
 */
export async function removeFactor({ db, actor: { principal, request } }: ServiceContext, { factor_id }: { factor_id: string }) {
  const factor = await ownFactor({ db }, principal.userId, factor_id);
  const others = await db.prisma.userMfaFactor.count({
    where: { userId: principal.userId, confirmedAt: { not: null }, id: { not: factor.id } },
  });
  if (others === 0 && mfaRequiredFor(principal)) {
    throw Conflict("The platform requires a second factor for your account: add another authenticator app before removing this one");
  }
  if (others === 0) await assertFreshStepUp(db.prisma, principal);
  else await assertSteppedUp(db.prisma, principal);
  await db.prisma.$transaction(async (tx) => {
    await tx.userMfaFactor.delete({ where: { id: factor.id } });
    if (others === 0) await tx.userRecoveryCode.deleteMany({ where: { userId: principal.userId } });
    await emitForUser(sqlIn(tx), actorOf(principal, request), principal.userId, {
      type: "user.mfa_removed",
      target: { type: "user", id: principal.userId, name: principal.email },
      details: { factor_id: factor.id, kind: factor.kind, name: factor.name, remaining: others },
    });
  });
}

/** Ten new recovery codes in place of the old ones (after a step-up); shown this once. */
export async function regenerateRecoveryCodes({ db, actor: { principal } }: ServiceContext): Promise<{ recovery_codes: string[] }> {
  const factors = await db.prisma.userMfaFactor.count({ where: { userId: principal.userId, confirmedAt: { not: null } } });
  if (factors === 0) throw Conflict("Recovery codes come with a second factor: add an authenticator app first");
  await assertSteppedUp(db.prisma, principal);
  return { recovery_codes: await db.prisma.$transaction((tx) => replaceRecoveryCodes(tx, principal.userId)) };
}

async function ownFactor({ db }: Pick<ServiceContext, "db">, userId: string, factorId: string) {
  const factor = await db.prisma.userMfaFactor.findFirst({ where: { id: uuidOrNone(factorId), userId, confirmedAt: { not: null } } });
  if (!factor) throw NotFound("Factor");
  return factor;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A malformed id finds nothing (rather than making Postgres refuse the uuid: a 500). */
function uuidOrNone(id: string): string {
  return UUID.test(id) ? id : "00000000-0000-0000-0000-000000000000";
}
