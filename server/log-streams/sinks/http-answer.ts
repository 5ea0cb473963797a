/**
 * What a receiver's whole answer (or the lack of one) means, for the sinks that send a batch in
 * one request (S3, HTTPS): 2xx is ok; anything else failed, with the receiver's own words when its
 * error format is known, `Retry-After` honoured and 1 KiB of the body kept (./http-parts.ts).
 * `secrets` are scrubbed from what is kept, should a receiver echo one back.
 */
import { OutboundError, type SafeResponse } from "../../outbound/guard.ts";
import { parseRetryAfter } from "../../outbound/retry-after.ts";
import { outboundReason, snippet } from "./http-parts.ts";
import type { SinkAnswer } from "./types.ts";

/** Bytes read of an answer at most, as webhooks do: a larger one fails as too_large. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

const REDACTED = "[redacted]";

function scrub(text: string, secrets: readonly string[]): string {
  return secrets.filter((s) => s.length >= 4).reduce((t, s) => t.split(s).join(REDACTED), text);
}

/** An answer from the receiver; `error` reads why a non-2xx failed from its body (default `HTTP <status>`). */
export function answerOf(res: SafeResponse, error: (body: string) => string | null, secrets: readonly string[] = []): SinkAnswer {
  const ok = res.status >= 200 && res.status < 300;
  return {
    ok,
    status: res.status,
    body: scrub(snippet(res.body), secrets),
    error: ok ? null : scrub(error(res.body.toString("utf8")) ?? `HTTP ${res.status}`, secrets),
    retryAfter: ok ? null : parseRetryAfter(res.headers["retry-after"]),
  };
}

/** No answer: the guard refused the target, the deadline passed, or the connection failed. */
export function failureOf(error: unknown): SinkAnswer {
  if (!(error instanceof OutboundError)) throw error;
  return { ok: false, status: null, body: null, error: outboundReason(error), retryAfter: null };
}
