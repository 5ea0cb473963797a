/**
 * Idempotency-Key for POST, PUT and PATCH: the REST edge's stage (rest.ts). The first request with
 * a key claims it, runs, and stores its final response; a later request with the same key replays
 * that response, or is told the key is busy (409) or was used for another request (422). Responses
 * that the client should be free to retry (5xx, 401, 429) are not stored: their claim is released.
 * The claims and the stored responses, sealed for the caller's credential, are the store's
 * (server/contract/idempotency-keys.ts).
 */
import { createHash } from "node:crypto";
import { AppError } from "../errors.ts";
import { claim, complete, release, seal, unseal } from "../contract/idempotency-keys.ts";
import { BODY_METHODS } from "./body.ts";
import type { Admitted } from "./exchange.ts";
import { requirePrincipal } from "../auth/credentials.ts";

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

function shouldStore(status: number): boolean {
  return status < 500 && status !== 401 && status !== 429;
}
