/**
 * A paged table's position in its page's URL (`cursor`, and past the first page `skip`: how many
 * rows come before it), read and written the same way by every list that keeps it there.
 */
import type { TablePosition } from "./pagination";

export function positionFrom(params: URLSearchParams): TablePosition {
  const cursor = params.get("cursor") || undefined;
  const start = Number(params.get("skip") ?? 0);
  return { cursor, start: cursor && Number.isInteger(start) && start > 0 ? start : 0 };
}

/** Adds `position` to `params` (nothing for the first page). */
export function setPosition(params: URLSearchParams, position?: TablePosition): void {
  if (!position?.cursor) return;
  params.set("cursor", position.cursor);
  if (position.start > 0) params.set("skip", String(position.start));
}
