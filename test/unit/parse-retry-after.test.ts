import { describe, expect, test } from "vitest";
import { parseRetryAfter } from "../../server/outbound/retry-after.ts";

const NOW = Date.parse("2026-01-31T12:00:00Z");

describe("parseRetryAfter", () => {
  test("delta-seconds", () => {
    expect(parseRetryAfter("120", NOW)).toBe(120);
    expect(parseRetryAfter(" 0 ", NOW)).toBe(0);
  });

  test("an HTTP date, rounded up to whole seconds from now", () => {
    expect(parseRetryAfter("Sat, 31 Jan 2026 12:01:30 GMT", NOW)).toBe(90);
    expect(parseRetryAfter(new Date(NOW + 1500).toUTCString(), NOW + 500)).toBe(1);
  });

  test("a date in the past is 0", () => {
    expect(parseRetryAfter("Sat, 31 Jan 2026 11:00:00 GMT", NOW)).toBe(0);
  });

  test("capped at a day", () => {
    expect(parseRetryAfter("999999", NOW)).toBe(86_400);
    expect(parseRetryAfter("Sun, 01 Feb 2026 13:00:00 GMT", NOW)).toBe(86_400);
  });

  test("the first of repeated headers counts", () => {
    expect(parseRetryAfter(["30", "60"], NOW)).toBe(30);
  });

  test.each([undefined, "", [], "soon", "in a minute"])("%j is no value", (value) => {
    expect(parseRetryAfter(value as string | string[] | undefined, NOW)).toBeNull();
  });
});
