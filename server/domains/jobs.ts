/**
 * Periodic work of domains (server/jobs): look up the TXT record of every domain whose next check
 * is due (pending ones with backoff, verified ones daily) and apply what was found
 * (verification.ts): pending domains verify or, after 7 days, fail; a verified domain whose record
 * is gone or changed fails with `domain.verification_failed`.
 */
import type { Database } from "../db/client.ts";
import { clock } from "../clock.ts";
import { SYSTEM_ACTOR } from "../events/emit.ts";
import { AppError } from "../errors.ts";
import { errorFields, log } from "../log.ts";
import { MINUTE, type Job, type JobContext } from "../jobs/job.ts";
import { lookupVerification, type Lookup } from "./dns.ts";
import { applyLookup, isUniqueViolation, lockDomain, verifiedElsewhere } from "./verification.ts";

const BATCH = 50;
/** Lookups in flight at once (each may take the DNS timeout). */
const PARALLEL = 8;
/** A claimed domain is not claimed again this long, should its run stop before applying. */
const LEASE_MS = 5 * MINUTE;

interface Claimed {
  id: string;
  domain: string;
  verification_value: string;
}

/**
 * Claims due domains: their next check moves past the lease, so another instance (or the next
 * run) does not take them meanwhile; applying the lookup sets the real next check.
 */
async function claimDue(db: Database, now: Date): Promise<Claimed[]> {
  const lease = new Date(now.getTime() + LEASE_MS);
  return db.prisma.$queryRaw<Claimed[]>`
    UPDATE domains SET next_check_at = ${lease}
    WHERE id IN (
      SELECT id FROM domains
      WHERE next_check_at <= ${now} AND state IN ('pending', 'verified')
      ORDER BY next_check_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
    RETURNING id, domain, verification_value`;
}

async function apply(db: Database, claimed: Claimed, lookup: Lookup): Promise<string | null> {
  try {
    return await db.prisma.$transaction(async (tx) => {
      const row = await lockDomain(tx, claimed.id);
      if (!row || row.state === "failed") return null;
      return (await applyLookup(tx, row, lookup, clock.now(), SYSTEM_ACTOR)).state;
    });
  } catch (error) {
    // Another tenant verified it first: this one stays as it was, and says why.
    if (!isUniqueViolation(error) && !(error instanceof AppError && error.code === "conflict")) throw error;
    await db.prisma.domain.updateMany({
      where: { id: claimed.id },
      data: { lastCheckedAt: clock.now(), lastCheckResult: lookup.result, lastError: verifiedElsewhere(claimed.domain).message },
    });
    return null;
  }
}

export async function recheckDueDomains(db: Database, { signal }: Partial<JobContext> = {}) {
  const due = await claimDue(db, clock.now());
  const summary = { domains_checked: 0, domains_failed: 0 };
  const queue = [...due];
  const worker = async () => {
    for (let next = queue.shift(); next && !signal?.aborted; next = queue.shift()) {
      try {
        const state = await apply(db, next, await lookupVerification(next.domain, next.verification_value));
        summary.domains_checked++;
        if (state === "failed") summary.domains_failed++;
      } catch (error) {
        log.error("domain re-check failed", { domain_id: next.id, ...errorFields(error) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, due.length) }, worker));
  return summary;
}

export const domainJobs: Job[] = [
  { name: "domains.verification_recheck", every: MINUTE, run: (db, context) => recheckDueDomains(db, context) },
];
