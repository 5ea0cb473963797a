/** The SDK transport's reading of Retry-After (seconds or an HTTP date) and of the RateLimit field. */
import { describe, expect, test } from "vitest";
import { rateLimitOf, retryAfterMs } from "../../sdk/src/transport.ts";

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
