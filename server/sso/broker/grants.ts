/**
 * What the broker hands out after a sign-in: a one-time authorization code (60 s, single use,
 * bound to the application, its redirect_uri and the PKCE challenge), exchanged for an opaque
 * access token (10 minutes, scoped to the application) that reads the profile. Codes and tokens
 * are random and stored only as SHA-256; the profile travels with them in Postgres, so any
 * instance can answer.
 */
import { createHash, randomBytes } from "node:crypto";
import { type Database, sqlIn } from "../../db/client.ts";
import type { SqlStatements } from "../../db/sql.ts";
import type { RequestInfo } from "../../auth/principal.ts";
import { clock } from "../../clock.ts";
import { emitEvent } from "../../events/emit.ts";
import type { BrokerRequest, PendingSignIn, SignInProvider, SsoProfile } from "../signin/protocol.ts";
import type { BrokerProfile } from "./schemas.ts";
import { withQuery } from "./oauth.ts";

export const CODE_TTL_MS = 60_000;
export const ACCESS_TOKEN_TTL_S = 600;

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

/**
 * UUID version 5 (RFC 9562 §5.5) of `name` in the namespace `namespace` (a UUID): the profile id,
 * the same for the same subject at the same provider, on every sign-in and every instance.
 */
export function uuidV5(namespace: string, name: string): string {
  const hash = createHash("sha1")
    .update(Buffer.from(namespace.replace(/-/g, ""), "hex"))
    .update(name, "utf8")
    .digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A directory user's part of the profile: their id and the names of their directory groups. */
export interface DirectoryPart {
  directoryUserId: string;
  groups: string[];
}

/**
 * The profile an application receives. For a directory user of the tenant, `groups` are their
 * directory groups (what the tenant's IdP provisioned, kept current by SCIM) rather than the
 * sign-in's claim, which IdPs often omit or truncate; the claim stays in `raw_attributes`.
 */
export function brokerProfile(provider: SignInProvider, profile: SsoProfile, directory: DirectoryPart | null = null): BrokerProfile {
  return {
    id: uuidV5(provider.id, profile.id),
    email: profile.email,
    first_name: profile.first_name,
    last_name: profile.last_name,
    groups: directory ? directory.groups : profile.groups,
    idp_id: profile.id,
    issuer: profile.issuer,
    tenant_id: provider.tenantId,
    provider_id: provider.id,
    provider_type: provider.providerType,
    protocol: provider.protocol,
    raw_attributes: profile.raw_attributes,
    ...(directory ? { directory_user_id: directory.directoryUserId } : {}),
  };
}

/**
 * The end of a broker sign-in: stores a code for the profile and answers where the browser goes,
 * the application's `redirect_uri?code&state`. Writes `sso.broker_login` in the provider's tenant.
 */
export async function issueCode(
  db: Database,
  pending: PendingSignIn & { broker: BrokerRequest },
  provider: SignInProvider,
  profile: SsoProfile,
  request: RequestInfo,
  directory: DirectoryPart | null = null,
): Promise<string> {
  const code = randomBytes(32).toString("base64url");
  const presented = brokerProfile(provider, profile, directory);
  await db.prisma.$transaction(async (tx) => {
    await tx.ssoAuthorizationCode.create({
      data: {
        codeHash: sha256(code),
        applicationId: pending.broker.applicationId,
        redirectUri: pending.broker.redirectUri,
        codeChallenge: pending.broker.codeChallenge,
        tenantId: provider.tenantId,
        providerId: provider.id,
        profile: presented as object,
        expiresAt: new Date(clock.now().getTime() + CODE_TTL_MS),
      },
    });
    await emitEvent(
      sqlIn(tx),
      { id: null, email: profile.email, ip: request.ip, userAgent: request.userAgent },
      {
        type: "sso.broker_login",
        tenantId: provider.tenantId,
        target: { type: "sso_provider", id: provider.id, name: provider.name },
        details: {
          application_id: pending.broker.applicationId,
          provider_id: provider.id,
          provider_type: provider.providerType,
          protocol: provider.protocol,
          profile_id: presented.id,
          email: profile.email,
        },
      },
    );
  });
  return withQuery(pending.broker.redirectUri, { code, state: pending.broker.clientState });
}

export interface RedeemedCode {
  id: string;
  applicationId: string;
  tenantId: string;
  providerId: string;
  codeChallenge: string;
  profile: BrokerProfile;
}

export type Redemption = { ok: true; code: RedeemedCode } | { ok: false; description: string };

/**
 * Takes the code for this application and redirect_uri, at most once. A code presented again
 * after its first use revokes the access token issued for it (RFC 6749 §4.1.2).
 */
export async function redeemCode(db: Database, input: { code: string; applicationId: string; redirectUri: string }): Promise<Redemption> {
  const hash = sha256(input.code);
  const now = clock.now();
  const [taken] = await db.sql.query<RedeemedCode>(
    `UPDATE sso_authorization_codes SET consumed_at = $4
     WHERE code_hash = $1 AND application_id = $2::uuid AND redirect_uri = $3 AND consumed_at IS NULL AND expires_at > $4
     RETURNING id, application_id AS "applicationId", tenant_id AS "tenantId", provider_id AS "providerId",
               code_challenge AS "codeChallenge", profile`,
    [hash, input.applicationId, input.redirectUri, now],
  );
  if (taken) return { ok: true, code: taken };
  const row = await db.prisma.ssoAuthorizationCode.findUnique({ where: { codeHash: hash } });
  if (!row) return { ok: false, description: "unknown code" };
  if (row.applicationId !== input.applicationId) return { ok: false, description: "the code was issued to another client" };
  if (row.redirectUri !== input.redirectUri) return { ok: false, description: "redirect_uri does not match the authorization request" };
  if (row.consumedAt) {
    await db.prisma.ssoAccessToken.deleteMany({ where: { codeId: row.id } });
    return { ok: false, description: "the code was already used" };
  }
  return { ok: false, description: "the code has expired" };
}

/** A new access token for the redeemed code: the value (returned once) and its lifetime. */
export async function issueAccessToken(db: Database, code: RedeemedCode): Promise<{ value: string; expiresIn: number }> {
  const value = `cpsso_${randomBytes(32).toString("base64url")}`;
  await db.prisma.ssoAccessToken.create({
    data: {
      tokenHash: sha256(value),
      applicationId: code.applicationId,
      codeId: code.id,
      tenantId: code.tenantId,
      providerId: code.providerId,
      profile: code.profile as object,
      expiresAt: new Date(clock.now().getTime() + ACCESS_TOKEN_TTL_S * 1000),
    },
  });
  return { value, expiresIn: ACCESS_TOKEN_TTL_S };
}

/** The profile an unexpired access token was issued with, or null. */
export async function profileOfAccessToken(db: Database, value: string): Promise<BrokerProfile | null> {
  if (!value || value.length > 200) return null;
  const row = await db.prisma.ssoAccessToken.findUnique({
    where: { tokenHash: sha256(value) },
    select: { profile: true, expiresAt: true },
  });
  if (!row || row.expiresAt.getTime() <= clock.now().getTime()) return null;
  return row.profile as unknown as BrokerProfile;
}

/** Housekeeping: codes and access tokens past their expiry. */
export async function purgeExpiredBrokerGrants(db: Database): Promise<number> {
  const before = new Date(clock.now().getTime() - 60_000);
  const codes = await db.prisma.ssoAuthorizationCode.deleteMany({ where: { expiresAt: { lt: before } } });
  const tokens = await db.prisma.ssoAccessToken.deleteMany({ where: { expiresAt: { lt: before } } });
  return codes.count + tokens.count;
}

/**
 * Ends what the broker handed out to these people (by email) for this tenant: codes not yet
 * redeemed and access tokens, so /api/sso/token and /api/sso/profile refuse them at once. A
 * deprovisioned directory user's (server/directories/lifecycle.ts), in the caller's transaction.
 */
export async function revokeBrokerGrantsOf(sql: SqlStatements, tenantId: string, emails: readonly string[]): Promise<number> {
  if (emails.length === 0) return 0;
  const [row] = await sql.query<{ n: number }>(
    `WITH tokens AS (DELETE FROM sso_access_tokens WHERE tenant_id = $1::uuid AND profile->>'email' = ANY($2::text[]) RETURNING 1),
          codes AS (DELETE FROM sso_authorization_codes WHERE tenant_id = $1::uuid AND profile->>'email' = ANY($2::text[]) AND consumed_at IS NULL RETURNING 1)
     SELECT (SELECT count(*) FROM tokens)::int + (SELECT count(*) FROM codes)::int AS n`,
    [tenantId, emails],
  );
  return row?.n ?? 0;
}
