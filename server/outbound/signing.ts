/**
 * Signed delivery headers, for whatever we send signed to a customer's endpoint (a webhook's
 * deliveries, an HTTPS log stream's batches): the Standard Webhooks trio, whose
 * `webhook-signature: v1,<base64>` over `{id}.{timestamp}.{body}` is the one receivers are told to
 * verify, and the seed's legacy `X-Webhook-Signature` (lowercase hex HMAC-SHA256 of the raw body,
 * keyed with the secret string exactly as issued). Standard Webhooks keys with
 * the secret's bytes: for a `whsec_` secret the base64 after the prefix, decoded (what the
 * libraries do with the string as given); for any other secret its UTF-8 bytes (the libraries'
 * `format: "raw"`). During a rotation overlap both secrets sign: `webhook-signature` carries both,
 * space-separated; the legacy `X-Webhook-Signature` the current one.
 */
import { createHmac } from "node:crypto";

const PREFIX = "whsec_";

/** The Standard Webhooks signing key of a secret. */
export function standardKey(secret: string): Buffer {
  return secret.startsWith(PREFIX) ? Buffer.from(secret.slice(PREFIX.length), "base64") : Buffer.from(secret, "utf8");
}

export function hexSignature(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}

export function standardSignature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac("sha256", standardKey(secret)).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

/** Every header of one attempt, sent as `userAgent`. `timestamp` is Unix seconds at the attempt. */
export function deliveryHeaders(input: {
  eventId: string;
  body: string;
  timestamp: number;
  secret: string;
  previousSecret?: string | null;
  userAgent: string;
}) {
  const { eventId, body, timestamp, secret, previousSecret, userAgent } = input;
  const signatures = [standardSignature(secret, eventId, timestamp, body)];
  if (previousSecret) signatures.push(standardSignature(previousSecret, eventId, timestamp, body));
  return {
    "content-type": "application/json",
    "user-agent": userAgent,
    "x-webhook-signature": hexSignature(secret, body),
    "x-webhook-id": eventId,
    "x-webhook-timestamp": String(timestamp),
    "idempotency-key": eventId,
    "webhook-id": eventId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatures.join(" "),
  };
}

const SHOWN_SIGNATURE_CHARS = 5;
const SIGNATURE_HEADERS = new Set(["x-webhook-signature", "webhook-signature"]);

/** `v1,abc12…` for `v1,abc12…xyz=`, `3f9a2…` for a hex signature: enough to tell two apart, never to reuse. */
function redactSignature(signature: string): string {
  const comma = signature.indexOf(",");
  const prefix = comma >= 0 ? signature.slice(0, comma + 1) : "";
  return `${prefix}${signature.slice(prefix.length, prefix.length + SHOWN_SIGNATURE_CHARS)}…`;
}

/** The headers of an attempt as the attempts log keeps them: every signature cut to its first characters. */
export function redactedHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      SIGNATURE_HEADERS.has(name.toLowerCase()) ? value.split(" ").map(redactSignature).join(" ") : value,
    ]),
  );
}
