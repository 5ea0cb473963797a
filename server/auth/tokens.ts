/**
 * API tokens: `cp_` + 32 random bytes (base64url), stored only as SHA-256 hex (and the last four
 * characters, which name the token in lists but do not help guess it).
 */
import { createHash, randomBytes } from "node:crypto";
import type { SqlRunner } from "../db/sql.ts";
import { sharedRead } from "../db/shared-read.ts";
import { asPlatformRole, type Principal } from "./principal.ts";
import { clock } from "../clock.ts";
import { countRequestSql, type Hit, type Policy } from "./rate-limit.ts";
import { TOKEN_PREFIX } from "../tokens/schemas.ts";

export function generateTokenValue(): string {
  return TOKEN_PREFIX + randomBytes(32).toString("base64url");
}

/** What is kept of a value besides its hash: its last four characters, to tell tokens apart in lists. */
export function lastFourOf(value: string): string {
  return value.slice(-4);
}

export function hashToken(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

interface TokenRow {
  id: string;
  tenantId: string | null;
  readOnly: boolean;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  userId: string;
  email: string;
  platformRole: string | null;
  ssoTenantId: string | null;
  ssoProviderId: string | null;
}

/** `hit`: the token's rate-limit count, when resolveBearer was asked to count the request. */
export type BearerResult = { principal: Principal; hit?: Hit } | { error: "invalid_token" };

const TOKEN_SELECT = `SELECT t.id, t.tenant_id AS "tenantId", t.read_only AS "readOnly", t.expires_at AS "expiresAt",
            t.revoked_at AS "revokedAt", t.last_used_at AS "lastUsedAt",
            t.sso_tenant_id AS "ssoTenantId", t.sso_provider_id AS "ssoProviderId", u.id AS "userId", u.email, u.platform_role AS "platformRole"
     FROM api_tokens t JOIN users u ON u.id = t.user_id
     WHERE t.token_hash = $1`;

/** The lookup and the rate-limit count of a live token in one statement (one round trip). */
const TOKEN_SELECT_COUNTED = `WITH token AS (${TOKEN_SELECT}),
  hit AS (${countRequestSql(`(SELECT $5::text || id AS key FROM token WHERE "revokedAt" IS NULL AND ("expiresAt" IS NULL OR "expiresAt" > now())) AS live`, { window: "$2", quota: "$3", lease: "$4" })})
  SELECT token.*, hit.hits, hit."resetMs" FROM token LEFT JOIN hit ON true`;

/**
 * Resolves a bearer token to its principal. Unknown, revoked and expired tokens are all
 * `invalid_token` (the caller cannot tell which). `last_used_at` is written at most once a minute.
 * `hash`: `hashToken(value)`, when the caller has it already.
 */
export async function resolveBearer(sql: SqlRunner, value: string, count?: Policy | null, hash?: string): Promise<BearerResult> {
  const now = clock.now();
  if (!value.startsWith(TOKEN_PREFIX) || value.length > 200) return { error: "invalid_token" };
  // Plain SQL, one statement (token joined to its owner, and counted), prepared (parsed and
  // planned once per connection): this runs on every API request. A lookup that does not count
  // is shared with the same token's concurrent requests (sharedRead: asked after each arrived).
  type Row = TokenRow & { hits?: number | null; resetMs?: number | null };
  const [token] = count
    ? await sql.query<Row>(
        TOKEN_SELECT_COUNTED,
        [hash ?? hashToken(value), count.windowSeconds, count.quota, count.lease, `${count.partition}:`],
        {
          prepare: true,
        },
      )
    : await sharedRead<Row>(sql, TOKEN_SELECT, [hash ?? hashToken(value)], { prepare: true });
  if (!token || token.revokedAt || (token.expiresAt && token.expiresAt <= now)) {
    return { error: "invalid_token" };
  }
  if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() > 60_000) {
    await sql.query(`UPDATE api_tokens SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $3)`, [
      token.id,
      now,
      new Date(now.getTime() - 60_000),
    ]);
  }
  return {
    principal: {
      userId: token.userId,
      email: token.email,
      // Minted in an SSO session: that session's restriction (policy.ts), no platform role.
      platformRole: token.ssoTenantId ? null : asPlatformRole(token.platformRole),
      ssoTenantId: token.ssoTenantId,
      ssoProviderId: token.ssoTenantId ? token.ssoProviderId : null,
      via: "token",
      token: { id: token.id, tenantId: token.tenantId, readOnly: token.readOnly, expiresAt: token.expiresAt },
      sessionId: null,
    },
    ...(typeof token.hits === "number" ? { hit: { hits: token.hits, resetMs: token.resetMs! } } : {}),
  };
}
