/**
 * Who may call is the first word of every procedure:
 *   publicProcedure             anyone
 *   authedProcedure             any signed-in caller (token or console session)
 *   operatorReadProcedure       platform operators, reading
 *   operatorProcedure           platform operators (writes: not with a read-only token)
 *   tenantProcedure(role)       a tenant role or above in the tenant of the call (404 outside it)
 *   setupProcedure(intent)      a setup link's holder, in the guided flow of that intent (none
 *                               of the others accepts one: 403, or 404 for another tenant)
 * The rules themselves are in server/auth/policy.ts. Step-up is asked by the service
 * (`assertSteppedUp`) once it has found the resource, so that another tenant's resource is a 404
 * whether or not the caller stepped up, and so that it can depend on the change (disabling an SSO
 * provider needs it, enabling does not); such procedures carry `stepUp: true` in their meta.
 */
import { AppError, Conflict, DatabaseUnavailable, Forbidden, InvalidField, NotFound } from "../errors.ts";
import { LAST_ADMIN_CONSTRAINT, violates } from "../db/constraints.ts";
import { findBadText } from "../contract/fields.ts";
import { isDatabaseUnavailable } from "../db/unavailable.ts";
import { isOperator, mayWrite, roleSatisfies, setupLinkRefusal } from "../auth/policy.ts";
import { resolveTenantAccess } from "../auth/access.ts";
import type { Principal, SetupIntent, TenantRole } from "../auth/principal.ts";
import { requirePrincipal } from "../auth/credentials.ts";
import { assertMfaEnrolled } from "../auth/mfa.ts";
import { baseProcedure, middleware } from "./init.ts";
import { toTRPCError } from "./errors.ts";

/**
 * Every procedure's first step, one middleware (each one more costs every request its share of
 * tRPC's bookkeeping):
 * - Every input, before anything reads it (schemas, tenant resolution): a string the database
 *   cannot store as sent (NUL, lone surrogates), anywhere in body, query or path, is a 400 naming
 *   it. One check here rather than a refinement on each of the schemas' string fields, which a new
 *   field could forget, and which would not reach free-form JSON (audit details) or object keys.
 * - Domain errors thrown by services become tRPC errors that keep the domain error as cause, and
 *   an unreachable database a 503 (server/db/unavailable.ts), which the console retries.
 */
const storableTextAndDomainErrors = middleware(async ({ next, getRawInput }) => {
  await assertStorableText(getRawInput);
  return domainErrors(await next());
});

async function assertStorableText(getRawInput: () => Promise<unknown>): Promise<void> {
  const bad = findBadText(await getRawInput());
  if (bad) throw toTRPCError(InvalidField(bad.path || "body", bad.message));
}

function domainErrors<R extends { ok: true } | { ok: false; error: { cause?: unknown } }>(result: R): R {
  if (!result.ok && result.error.cause instanceof AppError) throw toTRPCError(result.error.cause);
  if (!result.ok && isDatabaseUnavailable(result.error.cause)) throw toTRPCError(DatabaseUnavailable());
  // The last-admin rule's backstop in the database (server/members/admins.ts owns the rule).
  if (!result.ok && violates(result.error.cause, LAST_ADMIN_CONSTRAINT))
    throw toTRPCError(Conflict("This change would leave the tenant without an admin: make another member admin first"));
  return result;
}

export const publicProcedure = baseProcedure.use(storableTextAndDomainErrors);

/**
 * The caller, refusing a setup link's holder (only setupProcedure takes one), and platform staff
 * who must enrol a second factor first (PLATFORM_REQUIRE_MFA) outside their own account's
 * procedures (`account.*`: step-up, the factors, the password, the sessions).
 */
function requireAccount(ctx: Parameters<typeof requirePrincipal>[0], path: string, tenantId?: unknown): Principal {
  const principal = requirePrincipal(ctx);
  const refusal = setupLinkRefusal(principal, tenantId);
  if (refusal === "not_found") throw NotFound("Tenant");
  if (refusal) throw Forbidden("A setup link opens its guided setup only");
  if (!path.startsWith("account.")) assertMfaEnrolled(principal);
  return principal;
}

/** publicProcedure's step and the caller's in one middleware (each costs every request its share). */
export const authedProcedure = baseProcedure.meta({ access: "user" }).use(async ({ ctx, next, getRawInput, path }) => {
  await assertStorableText(getRawInput);
  let principal: Principal;
  try {
    principal = requireAccount(ctx, path);
  } catch (error) {
    throw error instanceof AppError ? toTRPCError(error) : error;
  }
  return domainErrors(await next({ ctx: { principal } }));
});

/** A signed-in caller doing a write: a read-only token is refused. */
export const writeProcedure = authedProcedure.meta({ write: true }).use(({ ctx, next }) => {
  if (!mayWrite(ctx.principal)) throw Forbidden("This token is read-only");
  return next();
});

/** Platform operators only, reading (an operator's read-only token may). */
export const operatorReadProcedure = authedProcedure.meta({ access: "operator" }).use(({ ctx, next }) => {
  if (!isOperator(ctx.principal)) throw Forbidden("Only platform operators may do this");
  return next();
});

/** Platform operators only; writes, so a read-only token is refused. */
export const operatorProcedure = authedProcedure.meta({ access: "operator", write: true }).use(({ ctx, next }) => {
  if (!isOperator(ctx.principal)) throw Forbidden("Only platform operators may do this");
  if (!mayWrite(ctx.principal)) throw Forbidden("This token is read-only");
  return next();
});

/**
 * The caller holds at least `role` in the tenant of the call: `tenant_id` from the input (the
 * path), or the tenant implied by the token (see resolveTenantAccess). `ctx.tenant` carries it.
 */
export function tenantProcedure(role: TenantRole) {
  // authedProcedure's check and the tenant's in one middleware (each costs every request).
  return publicProcedure.meta({ access: `tenant:${role}`, write: role === "admin" }).use(async ({ ctx, next, getRawInput, path }) => {
    const raw = (await getRawInput()) as { tenant_id?: unknown } | undefined;
    const principal = requireAccount(ctx, path, raw?.tenant_id);
    const tenant = await resolveTenantAccess(ctx.db.sql, principal, raw?.tenant_id);
    if (!roleSatisfies(tenant.role, role)) {
      throw Forbidden(principal.token?.readOnly ? "This token is read-only" : `This needs the tenant ${role} role`);
    }
    return next({ ctx: { principal, tenant } });
  });
}

/**
 * The holder of a setup link for `intent`, in the link's tenant (`ctx.tenant`, as admin: what the
 * guided flow does is what the link's creator, a tenant admin, handed over). Anyone else: 403.
 */
export function setupProcedure(intent: SetupIntent | "any") {
  return publicProcedure.meta({ access: `setup:${intent}`, write: true }).use(({ ctx, next }) => {
    const principal = requirePrincipal(ctx);
    const link = principal.setupLink;
    if (!link) throw Forbidden("Only a setup link's guided setup may do this");
    if (intent !== "any" && link.intent !== intent)
      throw Forbidden(`This setup link is for ${link.intent.replace("_", " ")}, not ${intent.replace("_", " ")}`);
    return next({ ctx: { principal, tenant: { id: link.tenantId, role: "admin" as TenantRole } } });
  });
}
