/**
 * What a lookup of the TXT record does to a domain, the one set of rules for "Verify now" and for
 * housekeeping:
 * - a match verifies it (409 when another tenant has verified the same domain: at most one may,
 *   enforced by the partial unique index domains_verified_domain_key), and keeps it verified;
 * - no record or another value leaves a pending domain pending (re-checked with backoff: 1, 5 and
 *   15 minutes, then hourly) until 7 days after it was added, then it is given up as `failed`;
 *   a verified domain whose record is gone or changed becomes `failed` (the owner may have
 *   changed): `domain.verification_failed` says so, rather than the claim being silently kept;
 * - an unavailable lookup (timeout, SERVFAIL) changes nothing but the next look: it says nothing
 *   about the record.
 * Verified domains are re-checked daily; those an operator verified by hand are not (no record is
 * expected), until a DNS match makes them DNS-verified.
 */
import type { Domain as DomainRow } from "../db/generated/client.ts";
import { sqlIn, type Tx } from "../db/client.ts";
import { ownershipChanged } from "./ownership.ts";
import { AppError } from "../errors.ts";
import { emitEvent, type EventActor } from "../events/emit.ts";
import { HOUR, MINUTE } from "../jobs/job.ts";
import type { Lookup } from "./dns.ts";
import { PENDING_DAYS, type DomainState, type VerificationMethod } from "./schemas.ts";

const DAY = 24 * HOUR;
/** Delays before the 1st, 2nd and 3rd check of a pending domain; hourly after that. */
const PENDING_BACKOFF = [MINUTE, 5 * MINUTE, 15 * MINUTE];
/** A verified domain whose lookup could not be made is looked at again sooner than daily. */
const RETRY_UNAVAILABLE = HOUR;

/** When a pending domain that has had `checks` checks is looked at next. */
export function nextPendingCheck(checks: number, now: Date): Date {
  return new Date(now.getTime() + (PENDING_BACKOFF[checks] ?? HOUR));
}

export const target = (row: { id: string; domain: string }) => ({ type: "domain", id: row.id, name: row.domain });

export function verifiedElsewhere(domain: string): AppError {
  return new AppError("conflict", `Domain ${domain} is already verified by another tenant`, {
    errors: [{ path: "domain", message: `${domain} is already verified by another tenant` }],
  });
}

/**
 * Whether `error` is a unique violation. Each write of this folder can violate one index only (a
 * create: (tenant_id, domain); a verification: domains_verified_domain_key), so which is known.
 */
export function isUniqueViolation(error: unknown): boolean {
  const text = JSON.stringify((error as { meta?: unknown })?.meta ?? {}) + String((error as Error)?.message);
  return (error as { code?: string })?.code === "P2002" || text.includes("23505");
}

/** Locks the row for the rest of the transaction and reads it; null when it is gone. */
export async function lockDomain(tx: Tx, id: string): Promise<DomainRow | null> {
  await tx.$queryRaw`SELECT id FROM domains WHERE id = ${id}::uuid FOR UPDATE`;
  return tx.domain.findUnique({ where: { id } });
}

/**
 * Marks the (locked) row verified. Another tenant's verified claim is a 409; two tenants verifying
 * at once both pass this read, and the loser's UPDATE then violates domains_verified_domain_key,
 * which the caller maps to the same 409 (see verifiedConflict).
 */
export async function markVerified(
  tx: Tx,
  row: DomainRow,
  now: Date,
  actor: EventActor,
  how: { method: VerificationMethod; reason?: string; lookup?: Lookup },
): Promise<DomainRow> {
  const taken = await tx.domain.findFirst({ where: { domain: row.domain, state: "verified", tenantId: { not: row.tenantId } } });
  if (taken) throw verifiedElsewhere(row.domain);
  const updated = await tx.domain.update({
    where: { id: row.id },
    data: {
      state: "verified",
      verificationMethod: how.method,
      verifiedAt: now,
      lastError: null,
      ...(how.lookup ? { lastCheckedAt: now, lastCheckResult: how.lookup.result } : {}),
      nextCheckAt: how.method === "dns" ? new Date(now.getTime() + DAY) : null,
    },
  });
  await emitEvent(sqlIn(tx), actor, {
    type: "domain.verified",
    tenantId: row.tenantId,
    target: target(row),
    details: { domain: row.domain, method: how.method, ...(how.reason ? { reason: how.reason } : {}) },
  });
  // The tenant owns the domain's people from now on: its directories link them.
  if (row.state !== "verified") await ownershipChanged(tx, row.tenantId, row.domain, actor);
  return updated;
}

/** Turns a unique violation of the verified index into the 409 naming the domain. */
export function verifiedConflict(error: unknown, domain: string): never {
  if (!(error instanceof AppError) && isUniqueViolation(error)) throw verifiedElsewhere(domain);
  throw error;
}

async function markFailed(tx: Tx, row: DomainRow, now: Date, actor: EventActor, lookup: Lookup, reason: string): Promise<DomainRow> {
  const updated = await tx.domain.update({
    where: { id: row.id },
    data: { state: "failed", lastCheckedAt: now, lastCheckResult: lookup.result, lastError: reason, nextCheckAt: null },
  });
  await emitEvent(sqlIn(tx), actor, {
    type: "domain.verification_failed",
    tenantId: row.tenantId,
    target: target(row),
    details: { domain: row.domain, previous_state: row.state, result: lookup.result, reason },
  });
  if (row.state === "verified") await ownershipChanged(tx, row.tenantId, row.domain, actor);
  return updated;
}

/** Applies a lookup's outcome to the (locked) row, by the rules above. */
export async function applyLookup(tx: Tx, row: DomainRow, lookup: Lookup, now: Date, actor: EventActor): Promise<DomainRow> {
  const state = row.state as DomainState;
  if (lookup.result === "match") {
    if (state !== "verified" || row.verificationMethod !== "dns") return markVerified(tx, row, now, actor, { method: "dns", lookup });
    return tx.domain.update({
      where: { id: row.id },
      data: { lastCheckedAt: now, lastCheckResult: "match", lastError: null, nextCheckAt: new Date(now.getTime() + DAY) },
    });
  }
  const expired = now.getTime() - row.createdAt.getTime() >= PENDING_DAYS * DAY;
  if (state === "pending" && expired) {
    return markFailed(tx, row, now, actor, lookup, `Not verified within ${PENDING_DAYS} days: ${lookup.error}`);
  }
  if (state === "verified" && lookup.result !== "unavailable" && row.verificationMethod === "dns") {
    return markFailed(tx, row, now, actor, lookup, `The verification record is no longer there: ${lookup.error}`);
  }
  if (state === "verified" && lookup.result !== "unavailable") {
    // Verified by an operator, whose word stands: a check without the record is reported, not acted on.
    return tx.domain.update({
      where: { id: row.id },
      data: { lastCheckedAt: now, lastCheckResult: lookup.result, lastError: lookup.error },
    });
  }
  const nextCheckAt =
    state === "pending"
      ? nextPendingCheck(row.checkCount + 1, now)
      : state === "verified" && row.verificationMethod === "dns"
        ? new Date(now.getTime() + RETRY_UNAVAILABLE)
        : row.nextCheckAt;
  return tx.domain.update({
    where: { id: row.id },
    data: {
      lastCheckedAt: now,
      lastCheckResult: lookup.result,
      lastError: lookup.error,
      nextCheckAt,
      ...(state === "pending" ? { checkCount: { increment: 1 } } : {}),
    },
  });
}
