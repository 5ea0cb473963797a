/**
 * The store of Idempotency-Keys (the REST edge's stage is server/http/idempotency.ts): a claim is a
 * row in Postgres, unique on (scope, key), so it holds across processes. The first request inserts
 * it "in_flight", and its final response is kept for 24 hours; a later request with the same key
 * finds that response, or the key busy (409) or used for another request (422). A request that
 * died leaves its claim to be taken over after a lease.
 *
 * A stored body may carry a secret shown once (a new API token, a webhook's signing secret, an
 * application's client secret), so it is kept encrypted (AES-256-GCM) under a key derived from
 * the caller's own credential (HKDF-SHA256), which the database never holds (the scope is a
 * different hash of it): only a replay by the same caller, with the same credential, can read it.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { SqlRunner } from "../db/sql.ts";
import { AppError } from "../errors.ts";

export const KEY_TTL_SECONDS = 24 * 60 * 60;
/** A claim whose request died (process killed) can be taken over after this long. */
export const CLAIM_LEASE_SECONDS = 60;

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Claim = { kind: "claimed"; id: string } | { kind: "replay"; response: StoredResponse };

/** Stored bodies: "v1." + base64url(iv ‖ tag ‖ ciphertext). Bodies stored before were plain text. */
const SEALED = "v1.";

function bodyKey(credential: string): Buffer {
  return Buffer.from(hkdfSync("sha256", credential, "", "control-plane idempotency response v1", 32));
}

/** `body`, encrypted for whoever holds `credential`. */
export function seal(credential: string, body: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", bodyKey(credential), iv);
  const sealed = Buffer.concat([cipher.update(body, "utf8"), cipher.final()]);
  return SEALED + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
}

/** The body `seal` stored for `credential` (a plain body stored before sealing, as it is). */
export function unseal(credential: string, stored: string): string {
  if (!stored.startsWith(SEALED)) return stored;
  const raw = Buffer.from(stored.slice(SEALED.length), "base64url");
  const decipher = createDecipheriv("aes-256-gcm", bodyKey(credential), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}

interface Row {
  id: string;
  fingerprint: string;
  state: string;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
}

export async function claim(sql: SqlRunner, scope: string, key: string, print: string): Promise<Claim> {
  for (let attempt = 0; attempt < 3; attempt++) {
    // Take the key if it is new, expired, or held by a request that died (same request only).
    const [taken] = await sql.query<{ id: string }>(
      `INSERT INTO idempotency_keys (scope, key, fingerprint, state, locked_until, expires_at)
       VALUES ($1, $2, $3, 'in_flight', now() + make_interval(secs => $4), now() + make_interval(secs => $5))
       ON CONFLICT (scope, key) DO UPDATE SET
         fingerprint = EXCLUDED.fingerprint, state = 'in_flight', locked_until = EXCLUDED.locked_until,
         expires_at = EXCLUDED.expires_at, created_at = now(),
         response_status = NULL, response_headers = NULL, response_body = NULL
       WHERE idempotency_keys.expires_at <= now()
          OR (idempotency_keys.state = 'in_flight' AND idempotency_keys.locked_until <= now()
              AND idempotency_keys.fingerprint = EXCLUDED.fingerprint)
       RETURNING id`,
      [scope, key, print, CLAIM_LEASE_SECONDS, KEY_TTL_SECONDS],
    );
    if (taken) return { kind: "claimed", id: taken.id };

    const [row] = await sql.query<Row>(
      `SELECT id, fingerprint, state, response_status, response_headers, response_body
       FROM idempotency_keys WHERE scope = $1 AND key = $2`,
      [scope, key],
    );
    if (!row) continue; // released between our two statements: try again
    if (row.fingerprint !== print) {
      throw new AppError("idempotency_key_mismatch", "This Idempotency-Key was already used with a different method, path or body");
    }
    if (row.state === "in_flight") {
      throw new AppError("idempotency_key_in_use", "A request with this Idempotency-Key is still being processed", {
        headers: { "Retry-After": "1" },
      });
    }
    return {
      kind: "replay",
      response: { status: row.response_status!, headers: row.response_headers ?? {}, body: row.response_body ?? "" },
    };
  }
  throw new AppError("idempotency_key_in_use", "A request with this Idempotency-Key is still being processed", {
    headers: { "Retry-After": "1" },
  });
}

export async function complete(sql: SqlRunner, id: string, response: StoredResponse): Promise<void> {
  await sql.query(
    `UPDATE idempotency_keys SET state = 'completed', response_status = $2, response_headers = $3::jsonb, response_body = $4
     WHERE id = $1`,
    [id, response.status, JSON.stringify(response.headers), response.body],
  );
}

export async function release(sql: SqlRunner, id: string): Promise<void> {
  await sql.query(`DELETE FROM idempotency_keys WHERE id = $1 AND state = 'in_flight'`, [id]);
}

/** Housekeeping: deletes expired keys. Returns how many. */
export async function purgeExpired(sql: SqlRunner): Promise<number> {
  const rows = await sql.query(`DELETE FROM idempotency_keys WHERE expires_at <= now() RETURNING id`);
  return rows.length;
}
