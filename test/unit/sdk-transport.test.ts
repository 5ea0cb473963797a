/** The SDK transport's reading of Retry-After (seconds or an HTTP date) and of the RateLimit field, and its backoff. */
import { describe, expect, test } from "vitest";
import { backoffMs, rateLimitOf, retryAfterMs } from "../../sdk/src/transport.ts";

const NOW = Date.parse("2026-01-31T12:00:00Z");
const headers = (init: Record<string, string>) => new Headers(init);

describe("retryAfterMs", () => {
  test("delta-seconds, an HTTP date, a date past", () => {
    expect(retryAfterMs(headers({ "retry-after": "2" }), NOW)).toBe(2000);
    expect(retryAfterMs(headers({ "retry-after": "Sat, 31 Jan 2026 12:01:30 GMT" }), NOW)).toBe(90_000);
    expect(retryAfterMs(headers({ "retry-after": "Sat, 31 Jan 2026 11:00:00 GMT" }), NOW)).toBe(0);
  });

  test("absent or unreadable: null (the backoff decides)", () => {
    expect(retryAfterMs(headers({}), NOW)).toBeNull();
    expect(retryAfterMs(headers({ "retry-after": "soon" }), NOW)).toBeNull();
  });
});

test("rateLimitOf reads the remaining quota and the seconds to reset, as the server writes them", () => {
  expect(rateLimitOf(headers({ ratelimit: '"per-token";r=0;t=17' }))).toEqual({ remaining: 0, resetSeconds: 17 });
  expect(rateLimitOf(headers({ ratelimit: '"per-ip";r=599;t=60' }))).toEqual({ remaining: 599, resetSeconds: 60 });
  expect(rateLimitOf(headers({}))).toBeNull();
});

describe("backoffMs", () => {
  const retry = { maxRetries: 5, baseDelayMs: 500, maxDelayMs: 30_000 };

  test("full jitter: a random point between 0 and base × 2^attempt", () => {
    expect(backoffMs(0, retry, () => 0)).toBe(0);
    expect(backoffMs(0, retry, () => 0.5)).toBe(250);
    expect(backoffMs(3, retry, () => 0.5)).toBe(2_000); // 500 × 8 / 2
    expect(backoffMs(3, retry, () => 0.999)).toBeCloseTo(3_996);
  });

  test("never above maxDelayMs, however many attempts", () => {
    expect(backoffMs(20, retry, () => 0.999)).toBeLessThan(30_000);
    expect(backoffMs(20, retry, () => 0.5)).toBe(15_000);
  });

  test("with Math.random the waits spread out (jitter), within their bound", () => {
    const waits = Array.from({ length: 50 }, () => backoffMs(2, retry));
    expect(waits.every((ms) => ms >= 0 && ms < 2_000)).toBe(true);
    expect(new Set(waits).size).toBeGreaterThan(40);
  });
});
