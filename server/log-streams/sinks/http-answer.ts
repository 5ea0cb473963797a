/**
 * What an HTTP receiver's answer (or the lack of one) means to the engine, shared by the sinks
 * that send through the SSRF guard: 2xx is ok; anything else failed, with `Retry-After` honoured
 * and at most 1 KiB of the body kept. `redact` scrubs a secret the receiver might echo back.
 */
import { OutboundError, type SafeResponse } from "../../outbound/guard.ts";
import { parseRetryAfter } from "../../webhooks/send.ts";
import type { SinkAnswer } from "./types.ts";

export const ANSWER_BYTES = 1024;
/** Bytes read of an answer at most, as webhooks do: a larger one fails as too_large. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

const REDACTED = "[redacted]";

function scrub(text: string, secrets: readonly string[]): string {
  return secrets.filter((s) => s.length >= 4).reduce((t, s) => t.split(s).join(REDACTED), text);
}

/** An answer from the receiver; `error` says why a non-2xx failed (default `HTTP <status>`). */
export function answerOf(res: SafeResponse, error: (body: string) => string | null, secrets: readonly string[] = []): SinkAnswer {
  const text = res.body.toString("utf8").replace(/\0/g, "");
  const ok = res.status >= 200 && res.status < 300;
  const body = scrub(Buffer.from(text).subarray(0, ANSWER_BYTES).toString("utf8"), secrets);
  return {
    ok,
    status: res.status,
    body,
    error: ok ? null : scrub(error(text) ?? `HTTP ${res.status}`, secrets),
    retryAfter: ok ? null : parseRetryAfter(res.headers["retry-after"]),
  };
}

/** No answer: the guard refused the target, the deadline passed, or the connection failed. */
export function failureOf(error: unknown): SinkAnswer {
  if (!(error instanceof OutboundError)) throw error;
  const reason =
    error.kind === "blocked"
      ? `ssrf_refused: ${error.message}`
      : error.kind === "network"
        ? error.message
        : `${error.kind}: ${error.message}`;
  return { ok: false, status: null, body: null, error: reason, retryAfter: null };
}
