/**
 * API tokens: minted for a user (shown once), listed, revoked. A token is never broader than the
 * caller minting it: a tenant-scoped token can only mint tokens for the same tenant.
 */
import { sqlIn, type Tx } from "../db/client.ts";
import { keysetPage, keysetWhere, type PageRequest } from "../db/keyset.ts";
import { Forbidden, InvalidField, NotFound } from "../errors.ts";
import { clock } from "../clock.ts";
import { generateTokenValue, hashToken, lastFourOf } from "../auth/tokens.ts";
import { asPlatformRole, asTenantRole, type Principal } from "../auth/principal.ts";
import type { ServiceContext } from "../service-context.ts";
import { mayActForOthers, scopeTenantOf, tenantRoleOf } from "../auth/policy.ts";
import { actorOf, emitEvent, emitActorEvents, emitForUser, type EventActor } from "../events/emit.ts";
import type { ApiToken, CreateTokenInput } from "./schemas.ts";
import { isUuid } from "../db/ids.ts";

interface TokenRow {
  id: string;
  name: string;
  userId: string;
  tenantId: string | null;
  readOnly: boolean;
  lastFour: string | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

export function presentToken(row: TokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    user_id: row.userId,
    tenant_id: row.tenantId,
    read_only: row.readOnly,
    last_four: row.lastFour,
    expires_at: row.expiresAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** Whose tokens the caller means: its own, or (operators) the user it names. */
function ownerOf(principal: Principal, userId: string | undefined): string {
  if (!userId || userId === principal.userId) {
    if (principal.via === "system") throw InvalidField("user_id", "is required from the CLI");
    return principal.userId;
  }
  if (!mayActForOthers(principal)) throw Forbidden("Only platform operators may manage another user's tokens");
  return userId;
}

export async function listTokens(
  { db: { prisma: db }, actor: { principal } }: ServiceContext,
  { userId, page }: { userId?: string; page: PageRequest },
) {
  // A caller confined to one tenant (an SSO session, a tenant-scoped token) sees only the tokens of
  // that tenant: the owner's tokens elsewhere, and their ids and names, are outside its reach.
  const scope = scopeTenantOf(principal);
  const where = { userId: ownerOf(principal, userId), revokedAt: null, ...(scope ? { tenantId: scope } : {}) };
  return keysetPage<TokenRow>(page, {
    key: (row) => ({ at: row.createdAt, id: row.id }),
    count: () => db.apiToken.count({ where }),
    find: ({ after, order, skip, take }) =>
      db.apiToken.findMany({
        where: { AND: [where, keysetWhere("createdAt", after, order)] },
        orderBy: [{ createdAt: order }, { id: order }],
        skip,
        take,
      }),
  });
}

export async function createToken({ db, actor: { principal, request } }: ServiceContext, input: CreateTokenInput) {
  const ownerId = ownerOf(principal, input.user_id);
  const owner = await db.prisma.user.findUnique({ where: { id: ownerId } });
  if (!owner) throw InvalidField("user_id", "no such user");

  const scope = scopeTenantOf(principal);
  if (scope && input.tenant_id !== scope) {
    throw Forbidden(
      principal.ssoTenantId
        ? "A session signed in through SSO can only create tokens scoped to its tenant"
        : "A tenant-scoped token can only create tokens scoped to the same tenant",
    );
  }
  if (input.tenant_id) {
    // The owner must be able to act in that tenant, or the token would be useless (or a leak).
    const membership = await db.prisma.membership.findUnique({
      where: { tenantId_userId: { tenantId: input.tenant_id, userId: ownerId } },
    });
    const ownerPrincipal: Principal = {
      userId: ownerId,
      email: owner.email,
      platformRole: asPlatformRole(owner.platformRole),
      via: "token",
      token: null,
      sessionId: null,
    };
    const tenantExists = await db.prisma.tenant.count({ where: { id: input.tenant_id } });
    if (!tenantExists || !tenantRoleOf(ownerPrincipal, input.tenant_id, asTenantRole(membership?.role ?? null))) {
      throw InvalidField("tenant_id", "the token's owner has no access to this tenant");
    }
  }
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt <= clock.now()) throw InvalidField("expires_at", "must be in the future");

  const value = generateTokenValue();
  const token = await db.prisma.$transaction(async (tx) => {
    const row = await tx.apiToken.create({
      data: {
        userId: ownerId,
        name: input.name,
        tokenHash: hashToken(value),
        lastFour: lastFourOf(value),
        tenantId: input.tenant_id ?? null,
        // The SSO restriction travels with the token: that tenant only, no platform role.
        ssoTenantId: principal.ssoTenantId ?? null,
        // ...and its provider: disabling or deleting the provider revokes the token (server/account/sessions.ts).
        ssoProviderId: principal.ssoTenantId ? (principal.ssoProviderId ?? null) : null,
        // A read-only caller cannot mint a writing token (it cannot reach here: writes are refused).
        readOnly: input.read_only ?? false,
        expiresAt,
      },
    });
    const event = {
      type: "api_token.created" as const,
      target: { type: "api_token", id: row.id, name: row.name },
      details: {
        name: row.name,
        user_id: ownerId,
        tenant_id: row.tenantId,
        read_only: row.readOnly,
        expires_at: expiresAt?.toISOString() ?? null,
      },
    };
    const actor = actorOf(principal, request);
    if (row.tenantId) await emitEvent(sqlIn(tx), actor, { ...event, tenantId: row.tenantId });
    else await emitForUser(sqlIn(tx), actor, ownerId, event);
    return row;
  });
  return { token, value };
}

export async function revokeToken({ db, actor: { principal, request } }: ServiceContext, tokenId: string) {
  const token = isUuid(tokenId) ? await db.prisma.apiToken.findUnique({ where: { id: tokenId } }) : null;
  const mine = token && token.userId === principal.userId;
  if (!token || token.revokedAt || !(mine || mayActForOthers(principal))) throw NotFound("API token");
  const scope = scopeTenantOf(principal);
  if (scope && token.tenantId !== scope) throw NotFound("API token");
  await db.prisma.$transaction((tx) => revokeTokensIn(tx, actorOf(principal, request), [token]));
}

/**
 * Revokes the tokens in the caller's transaction and emits `api_token.revoked` for each. Shared
 * with a directory's deprovisioning (server/directories/lifecycle.ts), which adds why.
 */
export async function revokeTokensIn(
  tx: Tx,
  actor: EventActor,
  tokens: readonly { id: string; name: string; userId: string; tenantId: string | null }[],
  details: Record<string, unknown> = {},
): Promise<void> {
  if (tokens.length === 0) return;
  await tx.apiToken.updateMany({ where: { id: { in: tokens.map((t) => t.id) } }, data: { revokedAt: clock.now() } });
  const eventOf = (token: (typeof tokens)[number]) => ({
    type: "api_token.revoked" as const,
    target: { type: "api_token", id: token.id, name: token.name },
    details: { name: token.name, user_id: token.userId, tenant_id: token.tenantId, ...details },
  });
  const scoped = tokens.filter((t) => t.tenantId);
  await emitActorEvents(
    sqlIn(tx),
    scoped.map((token) => ({ actor, event: { ...eventOf(token), tenantId: token.tenantId } })),
  );
  for (const token of tokens) if (!token.tenantId) await emitForUser(sqlIn(tx), actor, token.userId, eventOf(token));
}
