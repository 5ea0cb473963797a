/**
 * What the HTTP sinks of SIEM intakes (Datadog, Splunk HEC) share: cutting a batch's entries into
 * requests within an intake's limits, one deadline across those requests, and turning what came
 * back (or the SSRF guard's refusal) into a SinkAnswer.
 */
import { OutboundError, safeFetch, type SafeRequest, type SafeResponse } from "../../outbound/guard.ts";
import { parseRetryAfter } from "../../outbound/retry-after.ts";
import type { SinkAnswer } from "./types.ts";

const SNIPPET_BYTES = 1024;
/** Intakes answer a few hundred bytes; more is not an intake's answer. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Groups serialized entries, in order, into parts of at most `maxCount` entries and `maxBytes`
 * bytes once joined with `separatorBytes` between them and `wrapperBytes` around them.
 */
export function cutIntoParts(
  entries: string[],
  limits: { maxCount: number; maxBytes: number; separatorBytes: number; wrapperBytes: number },
) {
  const parts: string[][] = [];
  let current: string[] = [];
  let bytes = limits.wrapperBytes;
  for (const entry of entries) {
    const size = Buffer.byteLength(entry, "utf8");
    const added = size + (current.length > 0 ? limits.separatorBytes : 0);
    if (current.length > 0 && (current.length >= limits.maxCount || bytes + added > limits.maxBytes)) {
      parts.push(current);
      current = [];
      bytes = limits.wrapperBytes;
    }
    current.push(entry);
    bytes += size + (current.length > 1 ? limits.separatorBytes : 0);
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

/** Milliseconds left before a deadline, never below 1 (safeFetch needs a positive timeout). */
export function remaining(deadline: number): number {
  return Math.max(1, deadline - Date.now());
}

export function snippet(body: Buffer | string): string {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  return bytes.subarray(0, SNIPPET_BYTES).toString("utf8").replace(/\0/g, "");
}

/** POST through the SSRF guard; a refusal, timeout or broken connection comes back as a failed answer. */
export async function post(url: string, request: Omit<SafeRequest, "maxBytes">): Promise<SafeResponse | SinkAnswer> {
  try {
    return await safeFetch(url, { method: "POST", maxBytes: MAX_ANSWER_BYTES, ...request });
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    return failure(outboundReason(error));
  }
}

export function isAnswer(value: SafeResponse | SinkAnswer): value is SinkAnswer {
  return "ok" in value;
}

export function outboundReason(error: OutboundError): string {
  if (error.kind === "blocked") return `ssrf_refused: ${error.message}`;
  if (error.kind === "timeout") return "timeout";
  if (error.kind === "network") return error.message;
  return `${error.kind}: ${error.message}`;
}

export function failure(error: string, response?: SafeResponse): SinkAnswer {
  return {
    ok: false,
    status: response?.status ?? null,
    body: response ? snippet(response.body) : null,
    error,
    retryAfter: response ? parseRetryAfter(response.headers["retry-after"]) : null,
  };
}

export function success(response: SafeResponse): SinkAnswer {
  return { ok: true, status: response.status, body: snippet(response.body), error: null, retryAfter: null };
}
