/**
 * One delivery attempt over HTTP: the signed request (current secret, and the previous one while a
 * rotation overlaps), sent through the SSRF guard with a timeout (WEBHOOK_TIMEOUT_SECONDS, 5 s by
 * default), and what came back, reduced to what the attempts log keeps. What the answer means is sink.ts's to say.
 */
import type { Sent } from "../delivery/kind.ts";
import { OutboundError, safeFetch } from "../outbound/guard.ts";
import { decryptSecret } from "../secrets/encryption.ts";
import { env } from "../env.ts";
import { parseRetryAfter } from "../outbound/retry-after.ts";
import { deliveryHeaders, redactedHeaders } from "../outbound/signing.ts";

const USER_AGENT = "ControlPlane-Webhooks/1.0";
const SNIPPET_BYTES = 1024;
/** Response headers kept per attempt: this many, each value cut to this length; cookies never. */
const KEPT_RESPONSE_HEADERS = 40;
const HEADER_VALUE_CHARS = 300;
const NEVER_KEPT = new Set(["set-cookie"]);

/** What an attempt needs of a claimed delivery. */
export interface Outgoing {
  url: string;
  event_id: string;
  payload: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_valid: boolean | null;
}

/** `request`: what was sent, signatures redacted (server/outbound/signing.ts), for the attempts log. */
export interface AttemptResult extends Sent {
  retryAfter: number | null;
}

/** The response's headers as the attempts log keeps them (see KEPT_RESPONSE_HEADERS). */
export function keptResponseHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || NEVER_KEPT.has(name)) continue;
    if (Object.keys(kept).length >= KEPT_RESPONSE_HEADERS) break;
    kept[name] = (Array.isArray(value) ? value.join(", ") : value).slice(0, HEADER_VALUE_CHARS).replace(/\0/g, "");
  }
  return kept;
}

function snippet(body: Buffer): string {
  return body.subarray(0, SNIPPET_BYTES).toString("utf8").replace(/\0/g, "");
}

export async function sendAttempt(row: Outgoing): Promise<AttemptResult> {
  const secret = decryptSecret(row.secret_ciphertext);
  const previousSecret = row.previous_valid && row.previous_secret_ciphertext ? decryptSecret(row.previous_secret_ciphertext) : null;
  const headers = deliveryHeaders({
    eventId: row.event_id,
    body: row.payload,
    timestamp: Math.floor(Date.now() / 1000),
    secret,
    previousSecret,
    userAgent: USER_AGENT,
  });
  const request = { url: row.url, headers: redactedHeaders(headers) };
  try {
    const res = await safeFetch(row.url, {
      method: "POST",
      headers,
      body: row.payload,
      timeoutMs: env().WEBHOOK_TIMEOUT_SECONDS * 1000,
      maxBytes: 1024 * 1024,
    });
    return {
      status: res.status,
      body: snippet(res.body),
      error: null,
      retryAfter: parseRetryAfter(res.headers["retry-after"]),
      request,
      responseHeaders: keptResponseHeaders(res.headers),
    };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    const kind =
      error.kind === "blocked"
        ? "ssrf_refused"
        : error.kind === "timeout"
          ? "timeout"
          : error.kind === "network"
            ? error.message
            : `${error.kind}: ${error.message}`;
    return { status: null, body: null, error: kind, retryAfter: null, request, responseHeaders: null };
  }
}
