/**
 * Signed audit digests (like CloudTrail's digest files): for a tenant with events since its last
 * digest, a compact JWS (EdDSA, Ed25519) over `{tenant_id, from_sequence, to_sequence, head_hash,
 * previous_digest_hash, signed_at}`. The chain head's hash commits to every event up to it, so a
 * digest lets an auditor prove offline that an export is complete and unaltered
 * (scripts/verify-audit-export.mjs).
 *
 * Signing a digest writes no audit event: the event would move the head the digest has just
 * signed, so the log would always be one event past its newest digest.
 */
import { createHash, sign } from "node:crypto";
import type { Database } from "../db/client.ts";
import type { SqlRunner } from "../db/sql.ts";
import { keysetPage, keysetSql, type PageRequest } from "../db/keyset.ts";
import { isUuid } from "../db/ids.ts";
import { clock } from "../clock.ts";
import { Conflict, NotFound } from "../errors.ts";
import { secrets } from "../secrets/store.ts";
import type { TenantServiceContext } from "../service-context.ts";
import { parseSigningKey, type SigningKey } from "../secrets/signing-key.ts";
import type { AuditDigest } from "./digest-schemas.ts";

/** How often housekeeping signs a digest for a tenant with new events. */
export const DIGEST_INTERVAL_MS = 60 * 60 * 1000;

interface DigestRow {
  id: string;
  tenant_id: string;
  from_sequence: string;
  to_sequence: string;
  head_hash: string;
  previous_digest_hash: string | null;
  signed_at: Date;
  kid: string;
  jws: string;
}

const DIGEST_COLUMNS = `d.id, d.tenant_id, d.from_sequence, d.to_sequence, d.head_hash, d.previous_digest_hash, d.signed_at, d.kid, d.jws`;

export function presentDigest(row: DigestRow): AuditDigest {
  return {
    id: row.id,
    jws: row.jws,
    tenant_id: row.tenant_id,
    from_sequence: Number(row.from_sequence),
    to_sequence: Number(row.to_sequence),
    head_hash: row.head_hash,
    previous_digest_hash: row.previous_digest_hash,
    signed_at: new Date(row.signed_at).toISOString(),
    kid: row.kid,
  };
}

let current: { text: string; key: SigningKey } | undefined;

/** The key digests are signed with now (AUDIT_SIGNING_KEY, or the generated one). */
export function signingKey(): SigningKey {
  const text = secrets().auditSigningKey;
  if (current?.text !== text) current = { text, key: parseSigningKey(text) };
  return current.key;
}

const b64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

function compactJws(key: SigningKey, payload: object): string {
  const input = `${b64url(JSON.stringify({ alg: "EdDSA", kid: key.kid }))}.${b64url(JSON.stringify(payload))}`;
  return `${input}.${b64url(sign(null, Buffer.from(input), key.privateKey))}`;
}

export const digestHash = (jws: string) => createHash("sha256").update(jws).digest("hex");

async function latestDigest(sql: SqlRunner, tenantId: string): Promise<DigestRow | undefined> {
  const [row] = await sql.query<DigestRow>(
    `SELECT ${DIGEST_COLUMNS} FROM audit_digests d WHERE d.tenant_id = $1::uuid ORDER BY d.from_sequence DESC LIMIT 1`,
    [tenantId],
  );
  return row;
}

/**
 * Signs a digest of the tenant's chain from the event after its last digest to the head, unless
 * nothing was appended since. Safe on several instances at once: digests of one tenant are
 * contiguous, so two signers racing for the same range collide on (tenant_id, from_sequence) and
 * the loser answers the winner's digest.
 */
async function signTenantDigest(sql: SqlRunner, tenantId: string): Promise<{ digest: DigestRow | undefined; created: boolean }> {
  const [head] = await sql.query<{ sequence: string; hash: string }>(`SELECT sequence, hash FROM audit_chains WHERE chain_id = $1::uuid`, [
    tenantId,
  ]);
  const last = await latestDigest(sql, tenantId);
  if (!head || Number(head.sequence) === 0 || (last && Number(last.to_sequence) >= Number(head.sequence)))
    return { digest: last, created: false };
  // The first digest starts at the oldest event kept (1, unless retention has dropped older ones).
  const from = last
    ? Number(last.to_sequence) + 1
    : Number(
        (await sql.query<{ min: string }>(`SELECT min(sequence) AS min FROM audit_events WHERE tenant_id = $1::uuid`, [tenantId]))[0]!.min,
      );
  const key = signingKey();
  const payload = {
    tenant_id: tenantId,
    from_sequence: from,
    to_sequence: Number(head.sequence),
    head_hash: head.hash,
    previous_digest_hash: last ? digestHash(last.jws) : null,
    signed_at: clock.now().toISOString(),
  };
  const jws = compactJws(key, payload);
  await sql.query(`INSERT INTO audit_signing_keys (kid, public_jwk) VALUES ($1, $2::jsonb) ON CONFLICT (kid) DO NOTHING`, [
    key.kid,
    JSON.stringify(key.publicJwk),
  ]);
  const [row] = await sql.query<DigestRow>(
    `INSERT INTO audit_digests AS d (tenant_id, from_sequence, to_sequence, head_hash, previous_digest_hash, signed_at, kid, jws)
     VALUES ($1::uuid, $2, $3, $4, $5, $6::timestamptz, $7, $8)
     ON CONFLICT (tenant_id, from_sequence) DO NOTHING RETURNING ${DIGEST_COLUMNS}`,
    [
      tenantId,
      payload.from_sequence,
      payload.to_sequence,
      payload.head_hash,
      payload.previous_digest_hash,
      payload.signed_at,
      key.kid,
      jws,
    ],
  );
  return row ? { digest: row, created: true } : { digest: await latestDigest(sql, tenantId), created: false };
}

/**
 * On demand: a digest up to the current head. `created` is false when no event was appended since
 * the newest digest, which is then the answer (it already covers the head).
 */
export async function createDigest(ctx: TenantServiceContext): Promise<{ digest: AuditDigest; created: boolean }> {
  const { digest, created } = await signTenantDigest(ctx.db.sql, ctx.tenantId);
  if (!digest) throw Conflict("The tenant's audit log has no events yet: there is nothing to sign");
  return { digest: presentDigest(digest), created };
}

/** The tenant's digests, newest first. */
export async function listDigests(ctx: TenantServiceContext, input: { page: PageRequest }) {
  const { sql } = ctx.db;
  return keysetPage<DigestRow>(input.page, {
    key: (row) => ({ at: new Date(row.signed_at), id: row.id }),
    count: async () =>
      (
        await sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM audit_digests WHERE tenant_id = $1::uuid`, [ctx.tenantId])
      )[0]!.count,
    find: ({ after, order, skip, take }) => {
      const params: unknown[] = [ctx.tenantId];
      const bound = keysetSql(["d.signed_at", "d.id"], after, order, params);
      params.push(take, skip);
      return sql.query<DigestRow>(
        `SELECT ${DIGEST_COLUMNS} FROM audit_digests d WHERE d.tenant_id = $1::uuid AND ${bound}
         ORDER BY d.signed_at ${order}, d.id ${order} LIMIT $${params.length - 1} OFFSET $${params.length}`,
        params,
      );
    },
  });
}

/** One digest of the tenant; another tenant's, or an id that is not one, is 404. */
export async function getDigest(ctx: TenantServiceContext, input: { digest_id: string }): Promise<AuditDigest> {
  const [row] = isUuid(input.digest_id)
    ? await ctx.db.sql.query<DigestRow>(`SELECT ${DIGEST_COLUMNS} FROM audit_digests d WHERE d.id = $1::uuid AND d.tenant_id = $2::uuid`, [
        input.digest_id,
        ctx.tenantId,
      ])
    : [];
  if (!row) throw NotFound("Audit digest");
  return presentDigest(row);
}

/** Every key that has signed a digest, and the current one: rotation never unpublishes a key. */
export async function publicKeys(db: Database) {
  const key = signingKey();
  const rows = await db.sql.query<{ kid: string; public_jwk: SigningKey["publicJwk"] }>(
    `SELECT kid, public_jwk FROM audit_signing_keys ORDER BY created_at, kid`,
  );
  return { keys: [key.publicJwk, ...rows.filter((row) => row.kid !== key.kid).map((row) => row.public_jwk)] };
}

/**
 * Housekeeping: a digest for every tenant with events since its last digest, once that digest is
 * DIGEST_INTERVAL_MS old. One query finds them (a row per tenant); returns how many were signed.
 */
export async function signDueDigests(db: Database): Promise<number> {
  const due = await db.sql.query<{ tenant_id: string }>(
    `SELECT c.chain_id AS tenant_id
       FROM audit_chains c
       JOIN tenants t ON t.id = c.chain_id
       LEFT JOIN LATERAL (SELECT d.to_sequence, d.signed_at FROM audit_digests d
                           WHERE d.tenant_id = c.chain_id ORDER BY d.from_sequence DESC LIMIT 1) last ON TRUE
      WHERE c.sequence > coalesce(last.to_sequence, 0)
        AND (last.signed_at IS NULL OR last.signed_at <= $1::timestamptz)`,
    [new Date(clock.now().getTime() - DIGEST_INTERVAL_MS)],
  );
  let signed = 0;
  for (const { tenant_id } of due) if ((await signTenantDigest(db.sql, tenant_id)).created) signed++;
  return signed;
}
