/**
 * Idempotency-Key for POST, PUT and PATCH. The claim is a row in Postgres, unique on
 * (scope, key), so it holds across processes: the first request inserts it "in_flight", runs, and
 * stores its final response; a later request with the same key replays that response, or is told
 * the key is busy (409) or was used for another request (422). Responses that the client should
 * be free to retry (5xx, 401, 429) are not stored: their claim is released. `idempotent` is the
 * REST edge's stage (rest.ts); the rest of this module is the claim's store.
 *
 * A stored body may carry a secret shown once (a new API token, a webhook's signing secret, an
 * application's client secret), so it is kept encrypted (AES-256-GCM) under a key derived from
 * the caller's own credential (HKDF-SHA256), which the database never holds (the scope is a
 * different hash of it): only a replay by the same caller, with the same credential, can read it.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import type { SqlRunner } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { BODY_METHODS } from "./body.ts";
import type { Admitted } from "./exchange.ts";
import { requirePrincipal } from "../auth/credentials.ts";

export const KEY_TTL_SECONDS = 24 * 60 * 60;
/** A claim whose request died (process killed) can be taken over after this long. */
export const CLAIM_LEASE_SECONDS = 60;

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Claim = { kind: "claimed"; id: string } | { kind: "replay"; response: StoredResponse };

/** What a replay repeats of the stored response; X-Request-Id and RateLimit are the replaying request's own. */
const REPLAYED_HEADERS = ["content-type", "location", "www-authenticate"];

/**
 * The REST edge's idempotency stage: `respond` runs once per key, and a later request with the
 * key gets its stored response. Applies to a body method's request with an Idempotency-Key from
 * a bearer caller (the key's scope and the stored body's encryption both come from the token).
 * The token must still authenticate (the rate-limit stage resolved it): a revoked or expired one
 * is answered 401 here, before a key is claimed or a stored answer (maybe a secret) replayed.
 */
export async function idempotent(x: Admitted, respond: () => Promise<Response>): Promise<Response> {
  const key = x.req.headers.get("idempotency-key");
  const credential = x.bearer;
  if (key === null || !BODY_METHODS.has(x.method) || !credential) return respond();

  requirePrincipal(x.context);
  validateKey(key);
  const { sql } = x.context.db;
  const claimed = await claim(sql, scopeOf(credential), key, fingerprint(x.method, x.path + x.url.search, x.raw));
  if (claimed.kind === "replay") {
    const { status, headers, body: sealed } = claimed.response;
    const stored = sealed && unseal(credential, sealed);
    return new Response(stored || null, {
      status,
      headers: { ...headers, "Idempotent-Replayed": "true", "X-Request-Id": x.requestId },
    });
  }
  let response: Response;
  try {
    response = await respond();
  } catch (error) {
    await release(sql, claimed.id);
    throw error;
  }
  if (!shouldStore(response.status)) {
    await release(sql, claimed.id);
    return response;
  }
  const text = await response.clone().text();
  const kept: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = response.headers.get(name);
    if (value) kept[name] = value;
  }
  await complete(sql, claimed.id, { status: response.status, headers: kept, body: text && seal(credential, text) });
  return response;
}

function validateKey(key: string): void {
  if (key.length < 1 || key.length > 255) {
    throw new AppError("invalid_request", "Idempotency-Key must be 1 to 255 characters", {
      errors: [{ path: "Idempotency-Key", message: "must be 1 to 255 characters" }],
    });
  }
}

/** Sorts object keys so that the same JSON sent with other spacing or key order matches. */
function canonical(body: string): string {
  const sort = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sort)
      : value && typeof value === "object"
        ? Object.fromEntries(
            Object.entries(value as object)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([k, v]) => [k, sort(v)]),
          )
        : value;
  try {
    return JSON.stringify(sort(JSON.parse(body)));
  } catch {
    return body;
  }
}

function fingerprint(method: string, pathAndQuery: string, body: string): string {
  return createHash("sha256")
    .update(`${method} ${pathAndQuery}\n${canonical(body)}`)
    .digest("hex");
}

function scopeOf(credential: string): string {
  return createHash("sha256").update(credential).digest("hex");
}

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

function shouldStore(status: number): boolean {
  return status < 500 && status !== 401 && status !== 429;
}

interface Row {
  id: string;
  fingerprint: string;
  state: string;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
}

async function claim(sql: SqlRunner, scope: string, key: string, print: string): Promise<Claim> {
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

async function complete(sql: SqlRunner, id: string, response: StoredResponse): Promise<void> {
  await sql.query(
    `UPDATE idempotency_keys SET state = 'completed', response_status = $2, response_headers = $3::jsonb, response_body = $4
     WHERE id = $1`,
    [id, response.status, JSON.stringify(response.headers), response.body],
  );
}

async function release(sql: SqlRunner, id: string): Promise<void> {
  await sql.query(`DELETE FROM idempotency_keys WHERE id = $1 AND state = 'in_flight'`, [id]);
}

/** Housekeeping: deletes expired keys. Returns how many. */
export async function purgeExpired(sql: SqlRunner): Promise<number> {
  const rows = await sql.query(`DELETE FROM idempotency_keys WHERE expires_at <= now() RETURNING id`);
  return rows.length;
}
