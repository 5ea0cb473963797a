/** The console's relative times: what a deadline a few days away reads as. */
import { expect, test } from "vitest";
import { formatDaysUntil } from "../../components/ui/relative-time.tsx";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
// The console's clock is floored to the minute (useNow): up to a minute behind the real time.
const now = Date.UTC(2026, 10, 27, 9, 30);

test("a 7-day invitation reads 'in 7 days' in its first minute, not 'in 8 days'", () => {
  expect(formatDaysUntil(new Date(now + 7 * DAY), now)).toBe("in 7 days");
  expect(formatDaysUntil(new Date(now + 7 * DAY + 59_999), now)).toBe("in 7 days");
  expect(formatDaysUntil(new Date(now + 7 * DAY - 5 * MINUTE), now)).toBe("in 7 days");
});

test("days count down to tomorrow and today, never into the past", () => {
  expect(formatDaysUntil(new Date(now + 3 * DAY + 2 * 60 * MINUTE), now)).toBe("in 3 days");
  expect(formatDaysUntil(new Date(now + DAY), now)).toBe("tomorrow");
  expect(formatDaysUntil(new Date(now + 3 * 60 * MINUTE), now)).toBe("today");
  expect(formatDaysUntil(new Date(now - DAY), now)).toBe("today");
});
