/**
 * One delivery attempt over HTTP: the signed request (current secret, and the previous one while a
 * rotation overlaps), sent through the SSRF guard with a 5 s timeout, and what came back, reduced
 * to what the attempts log keeps. What the answer means is sink.ts's to say.
 */
import type { Sent } from "../delivery/kind.ts";
import { OutboundError, safeFetch } from "../outbound/guard.ts";
import { decryptSecret } from "../secrets/encryption.ts";
import { deliveryHeaders, redactedHeaders } from "./signing.ts";

const TIMEOUT_MS = 5000;
const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60;
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

/** Seconds from a Retry-After header (delta-seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  const seconds = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : (Date.parse(raw) - now) / 1000;
  if (!Number.isFinite(seconds)) return null;
  return Math.min(Math.max(0, Math.ceil(seconds)), MAX_RETRY_AFTER_SECONDS);
}

/** `request`: what was sent, signatures redacted (signing.ts), for the attempts log. */
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
  });
  const request = { url: row.url, headers: redactedHeaders(headers) };
  try {
    const res = await safeFetch(row.url, { method: "POST", headers, body: row.payload, timeoutMs: TIMEOUT_MS, maxBytes: 1024 * 1024 });
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
