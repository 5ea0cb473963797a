/**
 * API tokens: `cp_` + 32 random bytes (base64url), stored only as SHA-256 hex.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Tx } from "../db/client.ts";
import { asPlatformRole, type Principal } from "./principal.ts";
import { clock } from "../clock.ts";

export const TOKEN_PREFIX = "cp_";

export function generateTokenValue(): string {
  return TOKEN_PREFIX + randomBytes(32).toString("base64url");
}

export function hashToken(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export type BearerResult = { principal: Principal } | { error: "invalid_token" };

/**
 * Resolves a bearer token to its principal. Unknown, revoked and expired tokens are all
 * `invalid_token` (the caller cannot tell which). `last_used_at` is written at most once a minute.
 */
export async function resolveBearer(db: Tx, value: string): Promise<BearerResult> {
  const now = clock.now();
  if (!value.startsWith(TOKEN_PREFIX) || value.length > 200) return { error: "invalid_token" };
  const token = await db.apiToken.findUnique({
    where: { tokenHash: hashToken(value) },
    include: { user: { select: { id: true, email: true, platformRole: true } } },
  });
  if (!token || token.revokedAt || (token.expiresAt && token.expiresAt <= now)) {
    return { error: "invalid_token" };
  }
  if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() > 60_000) {
    await db.apiToken.updateMany({
      where: { id: token.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - 60_000) } }] },
      data: { lastUsedAt: now },
    });
  }
  return {
    principal: {
      userId: token.user.id,
      email: token.user.email,
      platformRole: asPlatformRole(token.user.platformRole),
      via: "token",
      token: { id: token.id, tenantId: token.tenantId, readOnly: token.readOnly, expiresAt: token.expiresAt },
      sessionId: null,
    },
  };
}
