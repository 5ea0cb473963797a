"use client";

import { formatExact, RelativeTime, useNow } from "../ui/relative-time";

const MINUTE = 60_000;
const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

function inFuture(ms: number): string {
  if (ms < MINUTE) return "in less than a minute";
  if (ms < 60 * MINUTE) return relative.format(Math.round(ms / MINUTE), "minute");
  if (ms < 48 * 60 * MINUTE) return relative.format(Math.round(ms / (60 * MINUTE)), "hour");
  return relative.format(Math.round(ms / (24 * 60 * MINUTE)), "day");
}

/** A time that may lie ahead ("in 5 minutes") or behind ("3 hours ago"), exact UTC in a tooltip. */
export function When({ iso }: { iso: string }) {
  const now = useNow();
  const at = Date.parse(iso);
  if (now === null || at <= now) return <RelativeTime iso={iso} />;
  const full = formatExact(iso);
  return (
    <time dateTime={iso} title={full}>
      {inFuture(at - now)}
    </time>
  );
}
