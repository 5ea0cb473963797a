/**
 * Verified domains of a tenant: an admin adds a domain, publishes the TXT record it is given, and
 * the domain is verified once the record is found ("Verify now", or housekeeping's re-checks). A
 * platform operator may vouch for a domain instead (override, with a reason for the audit log).
 * A domain verified by one tenant cannot be added, nor verified, by another (409 naming it).
 */
import { randomBytes } from "node:crypto";
import type { Domain as DomainRow } from "../db/generated/client.ts";
import { sqlIn } from "../db/client.ts";
import { keysetPage, keysetWhere, type PageRequest } from "../db/keyset.ts";
import { isUuid } from "../db/ids.ts";
import { AppError, Forbidden, NotFound } from "../errors.ts";
import { clock } from "../clock.ts";
import { isOperator } from "../auth/policy.ts";
import { actorOf, emitEvent } from "../events/emit.ts";
import type { TenantServiceContext } from "../service-context.ts";
import { lookupVerification, recordName } from "./dns.ts";
import { routesSignIns } from "./routing.ts";
import { ownershipChanged } from "./ownership.ts";
import {
  applyLookup,
  isUniqueViolation,
  lockDomain,
  markVerified,
  nextPendingCheck,
  target,
  verifiedConflict,
  verifiedElsewhere,
} from "./verification.ts";
import type {
  CheckResult,
  CreateDomainInput,
  Domain,
  DomainState,
  UpdateDomainInput,
  VerificationMethod,
  VerifyDomainInput,
} from "./schemas.ts";

/** `control-plane-verification=` and 32 lowercase hex characters (128 random bits). */
function newVerificationValue(): string {
  return `control-plane-verification=${randomBytes(16).toString("hex")}`;
}

export function presentDomain(row: DomainRow): Domain {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    domain: row.domain,
    state: row.state as DomainState,
    verification: { type: "dns_txt", name: recordName(row.domain), value: row.verificationValue },
    verified_at: row.verifiedAt?.toISOString() ?? null,
    last_checked_at: row.lastCheckedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    verification_method: row.verificationMethod as VerificationMethod | null,
    last_check_result: row.lastCheckResult as CheckResult | null,
    last_error: row.lastError,
    next_check_at: row.nextCheckAt?.toISOString() ?? null,
    routes_sign_ins: routesSignIns(row),
    auto_join: row.autoJoin,
  };
}

export async function listDomains({ db: { prisma: db }, tenantId }: TenantServiceContext, page: PageRequest) {
  return keysetPage<DomainRow>(page, {
    key: (row) => ({ at: row.createdAt, id: row.id }),
    count: () => db.domain.count({ where: { tenantId } }),
    find: ({ after, order, skip, take }) =>
      db.domain.findMany({
        where: { AND: [{ tenantId }, keysetWhere("createdAt", after, order)] },
        orderBy: [{ createdAt: order }, { id: order }],
        skip,
        take,
      }),
  });
}

/** The domain in the tenant; 404 outside it. */
export async function getDomain({ db, tenantId }: TenantServiceContext, id: string): Promise<DomainRow> {
  const row = isUuid(id) ? await db.prisma.domain.findFirst({ where: { id, tenantId } }) : null;
  if (!row) throw NotFound("Domain");
  return row;
}

export async function createDomain({ db, actor, tenantId }: TenantServiceContext, input: CreateDomainInput): Promise<DomainRow> {
  const now = clock.now();
  try {
    return await db.prisma.$transaction(async (tx) => {
      const taken = await tx.domain.findFirst({ where: { domain: input.domain, state: "verified", tenantId: { not: tenantId } } });
      if (taken) throw verifiedElsewhere(input.domain);
      const row = await tx.domain.create({
        data: {
          tenantId,
          domain: input.domain,
          verificationValue: newVerificationValue(),
          createdAt: now,
          nextCheckAt: nextPendingCheck(0, now),
        },
      });
      await emitEvent(sqlIn(tx), actorOf(actor.principal, actor.request), {
        type: "domain.created",
        tenantId,
        target: target(row),
        details: { domain: row.domain, record_name: recordName(row.domain) },
      });
      return row;
    });
  } catch (error) {
    if (!(error instanceof AppError) && isUniqueViolation(error)) {
      throw new AppError("conflict", `Domain ${input.domain} is already a domain of this tenant`, {
        errors: [{ path: "domain", message: `${input.domain} is already a domain of this tenant` }],
      });
    }
    throw error;
  }
}

/**
 * Checks the record now and applies what was found (see verification.ts); or, with `override`,
 * a platform operator marks the domain verified without DNS. Answers the domain as it now is.
 */
export async function verifyDomain(ctx: TenantServiceContext, input: VerifyDomainInput): Promise<DomainRow> {
  const { db, actor } = ctx;
  if (input.override && !isOperator(actor.principal)) throw Forbidden("Only platform operators may mark a domain verified by hand");
  const found = await getDomain(ctx, input.domain_id);
  // The lookup runs outside any transaction: a slow DNS server must not hold a row lock.
  const lookup = input.override ? undefined : await lookupVerification(found.domain, found.verificationValue);
  const eventActor = actorOf(actor.principal, actor.request);
  try {
    return await db.prisma.$transaction(async (tx) => {
      const row = await lockDomain(tx, found.id);
      if (!row) throw NotFound("Domain");
      const now = clock.now();
      if (!lookup) return markVerified(tx, row, now, eventActor, { method: "override", reason: input.reason });
      return applyLookup(tx, row, lookup, now, eventActor);
    });
  } catch (error) {
    return verifiedConflict(error, found.domain);
  }
}

/**
 * Turns auto-join on or off. On needs a verified domain: joining by email is a claim of the
 * domain's people, which only a tenant that proved the domain owns (server/domains/ownership.ts).
 */
export async function updateDomain(ctx: TenantServiceContext, input: UpdateDomainInput): Promise<DomainRow> {
  const found = await getDomain(ctx, input.domain_id);
  return ctx.db.prisma.$transaction(async (tx) => {
    const row = await lockDomain(tx, found.id);
    if (!row) throw NotFound("Domain");
    if (input.auto_join === undefined || input.auto_join === row.autoJoin) return row;
    if (input.auto_join && row.state !== "verified") {
      throw new AppError("invalid_request", `Verify ${row.domain} before turning auto-join on`, {
        errors: [{ path: "auto_join", message: "needs a verified domain" }],
      });
    }
    const updated = await tx.domain.update({ where: { id: row.id }, data: { autoJoin: input.auto_join } });
    await emitEvent(sqlIn(tx), actorOf(ctx.actor.principal, ctx.actor.request), {
      type: "domain.updated",
      tenantId: row.tenantId,
      target: target(row),
      details: { domain: row.domain, changes: { auto_join: { from: row.autoJoin, to: input.auto_join } } },
    });
    return updated;
  });
}

export async function deleteDomain(ctx: TenantServiceContext, id: string): Promise<void> {
  const found = await getDomain(ctx, id);
  await ctx.db.prisma.$transaction(async (tx) => {
    const row = await lockDomain(tx, found.id);
    if (!row) throw NotFound("Domain");
    await tx.domain.delete({ where: { id: row.id } });
    await emitEvent(sqlIn(tx), actorOf(ctx.actor.principal, ctx.actor.request), {
      type: "domain.deleted",
      tenantId: row.tenantId,
      target: target(row),
      details: { domain: row.domain, state: row.state },
    });
    // The tenant no longer owns the domain's people: its directories unlink them (memberships stay).
    if (row.state === "verified") await ownershipChanged(tx, row.tenantId, row.domain, actorOf(ctx.actor.principal, ctx.actor.request));
  });
}
