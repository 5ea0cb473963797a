/**
 * Verifies a webhook delivery from Control Plane, by the recommended signature, else the legacy one:
 * - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`):
 *   HMAC-SHA256 over `{id}.{timestamp}.{body}`, keyed with the secret's bytes (a `whsec_` secret's
 *   base64 after the prefix, any other secret's UTF-8). During a secret rotation the header carries
 *   two signatures (new and old secret), space-separated: either verifies.
 * - The seed's legacy `X-Webhook-Signature` (lowercase hex HMAC-SHA256 of the raw body, keyed with the
 *   secret string), with `X-Webhook-Timestamp`. It signs the body only: prefer the Standard
 *   Webhooks one, whose signature covers the timestamp too (a replay with a new timestamp fails).
 * Comparisons are constant-time; a timestamp further than `toleranceSeconds` from now is refused.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookInput {
  /** The webhook's secret; during a rotation give both (new first) if you keep both. */
  secret: string | string[];
  /** The request's headers (a Headers, or Node's `req.headers`). */
  headers: HeaderSource;
  /** The raw body exactly as received (not re-serialized JSON). */
  body: string | Uint8Array;
  /** Default 300 s. */
  toleranceSeconds?: number;
  /** Unix seconds; for tests. */
  now?: number;
}

/** A delivery's payload. */
export interface WebhookEvent<D = Record<string, unknown>> {
  id: string;
  type: string;
  tenant_id: string;
  created_at: string;
  data: D;
}

export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
}

function header(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const standardKey = (secret: string) =>
  secret.startsWith("whsec_") ? Buffer.from(secret.slice(6), "base64") : Buffer.from(secret, "utf8");

/** Checks the delivery and returns its parsed payload; throws WebhookVerificationError otherwise. */
export function verifyWebhook<D = Record<string, unknown>>(input: VerifyWebhookInput): WebhookEvent<D> {
  const secrets = (Array.isArray(input.secret) ? input.secret : [input.secret]).filter(Boolean);
  if (secrets.length === 0) throw new WebhookVerificationError("no secret given");
  const body = typeof input.body === "string" ? input.body : Buffer.from(input.body).toString("utf8");
  const standard = header(input.headers, "webhook-signature");
  const legacy = header(input.headers, "x-webhook-signature");
  const timestamp = header(input.headers, standard ? "webhook-timestamp" : "x-webhook-timestamp");

  if (!standard && !legacy) throw new WebhookVerificationError("no webhook-signature or X-Webhook-Signature header");
  if (timestamp === undefined || !/^\d+$/.test(timestamp)) throw new WebhookVerificationError("missing or malformed timestamp header");
  const now = input.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (input.toleranceSeconds ?? 300))
    throw new WebhookVerificationError("timestamp outside the tolerance");

  let valid = false;
  if (standard) {
    const id = header(input.headers, "webhook-id");
    if (!id) throw new WebhookVerificationError("missing webhook-id header");
    const given = standard.split(" ").filter((s) => s.startsWith("v1,"));
    for (const secret of secrets) {
      const expected = `v1,${createHmac("sha256", standardKey(secret)).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
      // Every comparison runs: no early exit tells which signature matched.
      for (const signature of given) valid = same(signature, expected) || valid;
    }
  } else {
    for (const secret of secrets) valid = same(legacy!, createHmac("sha256", secret).update(body).digest("hex")) || valid;
  }
  if (!valid) throw new WebhookVerificationError("no signature matches");
  try {
    return JSON.parse(body) as WebhookEvent<D>;
  } catch {
    throw new WebhookVerificationError("the body is not JSON");
  }
}
