"use client";

import { useSyncExternalStore } from "react";

const MINUTE = 60_000;

function subscribe(onChange: () => void) {
  const timer = setInterval(onChange, MINUTE);
  return () => clearInterval(timer);
}

// Rounded to the minute so React sees a stable value between ticks.
const nowToMinute = () => Math.floor(Date.now() / MINUTE) * MINUTE;

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 24 * 60 * MINUTE],
  ["month", 30 * 24 * 60 * MINUTE],
  ["week", 7 * 24 * 60 * MINUTE],
  ["day", 24 * 60 * MINUTE],
  ["hour", 60 * MINUTE],
  ["minute", MINUTE],
];

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const exact = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "long", timeZone: "UTC" });

/** Past times only, unless `future` (a deadline): a time a moment ahead (clock skew) reads "just now". */
export function formatRelative(date: Date, now: number, future = false): string {
  const diff = future ? date.getTime() - now : Math.min(0, date.getTime() - now);
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return relative.format(Math.round(diff / ms), unit);
  }
  return "just now";
}

const DAY = 24 * 60 * MINUTE;

/**
 * "in 7 days", "tomorrow", "today": whole days until a deadline, to the nearest day. `now` is
 * floored to the minute, so a 7-day invitation is up to a minute more than 7 days away: rounding
 * (not rounding up) keeps it "in 7 days".
 */
export function formatDaysUntil(date: Date, now: number): string {
  return relative.format(Math.max(0, Math.round((date.getTime() - now) / DAY)), "day");
}

/** The time to the minute, ticking each minute; null on the server and during hydration. */
export function useNow(): number | null {
  return useSyncExternalStore(subscribe, nowToMinute, () => null);
}

/** "3 hours ago" (or with `future`, "in 7 days"), with the exact UTC time in a tooltip and in the machine-readable attribute. */
export function RelativeTime({ iso, future = false }: { iso: string; future?: boolean }) {
  // null on the server and during hydration: shows the exact date there, so markup matches.
  const now = useNow();
  const date = new Date(iso);
  const full = exact.format(date);
  return (
    <time dateTime={iso} title={full}>
      {now === null ? full : formatRelative(date, now, future)}
    </time>
  );
}

export function formatExact(iso: string): string {
  return exact.format(new Date(iso));
}
