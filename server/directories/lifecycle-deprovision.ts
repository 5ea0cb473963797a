/**
 * Deprovisioning: what a person loses in the tenant the moment every directory user of theirs is
 * inactive (or deleted). Each step reuses the service that owns it, in the caller's transaction,
 * and so emits what that service emits, with the directory as actor. A member the directory does
 * not govern (they joined another way) keeps their membership and the tokens they made outside SSO,
 * and loses only what came through the tenant's IdP.
 */
import { sqlIn, type Tx } from "../db/client.ts";
import type { EventActor } from "../events/emit.ts";
import { endSessions } from "../auth/sessions.ts";
import { removeMembershipsIn, type MemberRef } from "../members/index.ts";
import { revokeTokensIn } from "../tokens/index.ts";
import { revokeBrokerGrantsOf } from "../sso/index.ts";

export interface Leaver {
  email: string;
  /** The console user of that email, when there is one. */
  user: { id: string; email: string } | null;
  /** Their membership of the tenant, when they have one. */
  member: MemberRef | null;
  /** A membership the directory does not govern: it stays, with the tokens made outside SSO. */
  keepsMembership: boolean;
}

/**
 * Ends the leavers' console sessions signed in to the tenant through SSO (a password session reaches
 * the tenant only through the membership, which ends too), their membership (the caller asked the
 * last-admin rule), their API tokens for the tenant (scoped to it, or minted in an SSO session of
 * it), and the broker's codes and access tokens issued to them for it. Revoked tokens stay revoked
 * when the person comes back.
 */
export async function deprovision(tx: Tx, tenantId: string, leavers: readonly Leaver[], actor: EventActor, directoryId: string) {
  if (leavers.length === 0) return;
  const why = { reason: "deprovisioned", directory_id: directoryId };
  const userIds = leavers.flatMap((l) => (l.user ? [l.user.id] : []));
  if (userIds.length > 0) await endSessions(sqlIn(tx), { userIds, tenantId }, "deprovisioned");
  await removeMembershipsIn(
    tx,
    actor,
    tenantId,
    leavers.flatMap(({ member, keepsMembership }) => (member && !keepsMembership ? [{ member, details: why }] : [])),
  );
  const gone = leavers.flatMap((l) => (l.user && !l.keepsMembership ? [l.user.id] : []));
  const staying = leavers.flatMap((l) => (l.user && l.keepsMembership ? [l.user.id] : []));
  if (userIds.length > 0) {
    const tokens = await tx.apiToken.findMany({
      where: {
        revokedAt: null,
        OR: [
          { userId: { in: gone }, OR: [{ tenantId }, { ssoTenantId: tenantId }] },
          { userId: { in: staying }, ssoTenantId: tenantId },
        ],
      },
      select: { id: true, name: true, userId: true, tenantId: true },
    });
    await revokeTokensIn(tx, actor, tokens, why);
  }
  await revokeBrokerGrantsOf(
    sqlIn(tx),
    tenantId,
    leavers.map((l) => l.email),
  );
}
