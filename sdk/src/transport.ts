/**
 * The fetch every call goes through: the token, an Idempotency-Key on every POST/PUT/PATCH (kept
 * across its own retries, so a retried create never creates twice), a timeout per attempt, and
 * retries of 429, 500, 502, 503, 504, timeouts and network errors with backoff (exponential, full
 * jitter), honouring Retry-After and the RateLimit fields.
 *
 * What is retried: GET, HEAD, PUT, DELETE and OPTIONS (idempotent by HTTP's definition), and POST or
 * PATCH carrying an Idempotency-Key: the server stores a write's final answer under its key and
 * replays it, and stores no 5xx or 429, so a retry after those runs the write once. A keyed retry
 * answered 409 `idempotency_key_in_use` (the first attempt still running, e.g. after a timeout) is
 * waited out too, for as long as its Retry-After says.
 */
import { ControlPlaneError, ControlPlaneTimeoutError } from "./errors.js";

export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** The first backoff, doubled per retry, with full jitter (default 500 ms). */
  baseDelayMs?: number;
  /** No single wait is longer: a Retry-After beyond it is not waited out but thrown (default 30 s). */
  maxDelayMs?: number;
}

export interface TransportOptions {
  token: string;
  /** How long each attempt waits for the answer's headers, in ms (default 60 s); 0: no limit. */
  timeout?: number;
  /** `false` turns retries off. */
  retry?: RetryOptions | false;
  /** `false`: no Idempotency-Key unless a call gives one (default true). */
  idempotencyKeys?: boolean;
  /** The fetch to use (default globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
  userAgent?: string;
}

const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);
const KEYED_METHODS = new Set(["POST", "PUT", "PATCH"]);
const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Per call: its own timeout, over the client's. */
export interface SendOptions {
  timeout?: number;
}

/** The wait before retry `attempt` (0-based): full jitter, a random point below min(cap, base × 2^attempt). */
export function backoffMs(attempt: number, retry: Required<RetryOptions>, random = Math.random): number {
  return random() * Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** attempt);
}

/** An attempt that got no answer within its timeout. */
class AttemptTimedOut extends Error {}

/** The RateLimit field's remaining quota and seconds to reset (draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitOf(headers: Headers): { remaining: number; resetSeconds: number } | null {
  const match = /;\s*r=(\d+)\s*;\s*t=(\d+)/.exec(headers.get("ratelimit") ?? "");
  return match ? { remaining: Number(match[1]), resetSeconds: Number(match[2]) } : null;
}

/** Retry-After in ms (delay-seconds or an HTTP date), or null. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | null {
  const value = headers.get("retry-after");
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

const sleep = (ms: number, signal?: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

export class Transport {
  readonly #fetch: (request: Request) => Promise<Response>;
  readonly #retry: Required<RetryOptions> | null;
  /** Each attempt's wait for an answer, in ms (0: none). */
  readonly timeout: number;
  /** The RateLimit field of the last answer: how much quota is left, and when it resets. */
  lastRateLimit: { remaining: number; resetSeconds: number } | null = null;

  constructor(private readonly options: TransportOptions) {
    this.#fetch = options.fetch ?? ((request) => globalThis.fetch(request));
    this.#retry = options.retry === false ? null : { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 30_000, ...options.retry };
    this.timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
  }

  /** Sends `request` (with the token and, for writes, an Idempotency-Key), retrying what is safe to retry. */
  readonly send = async (request: Request, options: SendOptions = {}): Promise<Response> => {
    // The request is openapi-fetch's own (or the pagination's): its headers are ours to set.
    const prepared = request;
    const headers = prepared.headers;
    if (!headers.has("authorization")) headers.set("authorization", `Bearer ${this.options.token}`);
    if (this.options.userAgent) headers.set("user-agent", this.options.userAgent);
    if (this.options.idempotencyKeys !== false && KEYED_METHODS.has(prepared.method) && !headers.has("idempotency-key")) {
      headers.set("idempotency-key", crypto.randomUUID());
    }
    const retryable = IDEMPOTENT_METHODS.has(prepared.method) || headers.has("idempotency-key");
    const retry = retryable ? this.#retry : null;
    const timeout = options.timeout ?? this.timeout;
    for (let attempt = 0; ; attempt++) {
      const last = !retry || attempt >= retry.maxRetries;
      let response: Response;
      try {
        // A body is a stream, read once: every attempt but the last sends a copy. Without one, the same request.
        response = await this.#attempt(last || prepared.body === null ? prepared : prepared.clone(), timeout);
      } catch (error) {
        if (prepared.signal.aborted) throw error;
        if (last) {
          if (error instanceof AttemptTimedOut) throw new ControlPlaneTimeoutError({ timeoutMs: timeout, attempts: attempt + 1 });
          throw new ControlPlaneError({
            status: 0,
            code: "network_error",
            detail: String((error as Error)?.message ?? error),
            cause: error,
          });
        }
        await sleep(backoffMs(attempt, retry!), prepared.signal);
        continue;
      }
      this.lastRateLimit = rateLimitOf(response.headers) ?? this.lastRateLimit;
      if (last || !this.#shouldRetry(response, headers)) return response;
      const wait = this.#waitFor(response, attempt);
      if (wait === null) return response;
      await response.body?.cancel();
      await sleep(wait, prepared.signal);
    }
  };

  /** One attempt: the answer, or AttemptTimedOut when its headers take longer than `timeout` ms (the body that follows is not timed). */
  async #attempt(request: Request, timeout: number): Promise<Response> {
    if (!timeout) return this.#fetch(request);
    const controller = new AbortController();
    const timed = new Request(request, { signal: AbortSignal.any([request.signal, controller.signal]) });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new AttemptTimedOut());
        controller.abort(new AttemptTimedOut());
      }, timeout);
    });
    try {
      // The race: a custom fetch may ignore the signal.
      return await Promise.race([this.#fetch(timed), expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  #shouldRetry(response: Response, headers: Headers): boolean {
    if (RETRY_STATUSES.has(response.status)) return true;
    // The first attempt of this key is still running (its answer lost, or it timed out here).
    return response.status === 409 && headers.has("idempotency-key") && response.headers.has("retry-after");
  }

  /** How long to wait before the next attempt; null when the server asks for longer than the cap. */
  #waitFor(response: Response, attempt: number): number | null {
    const cap = this.#retry!.maxDelayMs;
    const limit = rateLimitOf(response.headers);
    const asked = retryAfterMs(response.headers) ?? (limit && limit.remaining === 0 ? limit.resetSeconds * 1000 : null);
    if (asked === null) return backoffMs(attempt, this.#retry!);
    return asked > cap ? null : asked;
  }
}
