/** The caller's own account: who it is, and changing its password (which ends every session of it). */
import { sqlIn } from "../db/client.ts";
import { AppError, NotFound } from "../errors.ts";
import { hashPassword, verifyPassword } from "../auth/password.ts";
import type { TenantRole } from "../auth/principal.ts";
import type { ServiceContext } from "../service-context.ts";
import { passwordAttemptSucceeded, stepUpExpiry, takePasswordAttempt } from "../auth/step-up.ts";
import { actorOf, emitForUser } from "../events/emit.ts";
import type { Me } from "./schemas.ts";
import { scopeTenantOf } from "../auth/policy.ts";
import { endSessions, startSession } from "../auth/sessions.ts";

export async function describeMe({ db, actor: { principal } }: ServiceContext): Promise<Me> {
  const user = await db.prisma.user.findUnique({
    where: { id: principal.userId },
    include: { memberships: { include: { tenant: { select: { name: true } } }, orderBy: { createdAt: "asc" } } },
  });
  if (!user) throw NotFound("User");
  const scope = scopeTenantOf(principal);
  const stepUp = await stepUpExpiry(db.prisma, principal);
  return {
    user: { id: user.id, email: user.email, name: user.name, platform_role: principal.platformRole },
    memberships: user.memberships
      .filter((m) => !scope || m.tenantId === scope)
      .map((m) => ({ tenant_id: m.tenantId, tenant_name: m.tenant.name, role: m.role as TenantRole })),
    token: principal.token
      ? {
          id: principal.token.id,
          tenant_id: principal.token.tenantId,
          read_only: principal.token.readOnly,
          expires_at: principal.token.expiresAt?.toISOString() ?? null,
        }
      : null,
    step_up_expires_at: stepUp?.toISOString() ?? null,
  };
}

export async function changePassword(
  { db, actor: { principal, request } }: ServiceContext,
  { current_password: current, new_password: next }: { current_password: string; new_password: string },
) {
  // Shares step-up's lockout: without it, a stolen session cookie is an unlimited password oracle.
  const attempt = await takePasswordAttempt(db.sql, principal.userId);
  const user = await db.prisma.user.findUnique({ where: { id: principal.userId } });
  if (!user || !(await verifyPassword(current, user.passwordHash))) {
    throw new AppError("invalid_request", "The current password is incorrect", {
      errors: [{ path: "current_password", message: "is incorrect" }],
    });
  }
  const passwordHash = await hashPassword(next);
  return db.prisma.$transaction(async (tx) => {
    await passwordAttemptSucceeded(tx, user.id, attempt);
    await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    // Every session ends, this one too (a copy of its cookie is as good as it); the caller goes on
    // in a new session, whose cookie the console route sets.
    const sessionsEnded = await endSessions(sqlIn(tx), { userId: user.id }, "password_changed");
    const sessionId =
      principal.via === "session"
        ? await startSession(sqlIn(tx), {
            userId: user.id,
            ssoTenantId: principal.ssoTenantId,
            providerId: principal.ssoProviderId,
            request,
          })
        : null;
    await emitForUser(sqlIn(tx), actorOf(principal, request), user.id, {
      type: "user.updated",
      target: { type: "user", id: user.id, name: user.email },
      details: { email: user.email, changes: { password: { from: "set", to: "changed" } }, sessions_ended: sessionsEnded },
    });
    return { sessionId, email: user.email };
  });
}
