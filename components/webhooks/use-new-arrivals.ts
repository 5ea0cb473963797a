"use client";

import { useState } from "react";
import type { Delivery } from "./types";

interface Mark {
  /** The list the mark belongs to (filter and page): another list starts afresh. */
  list: string;
  at: string;
  id: string;
}

/** Newest first, as the API orders them: by created_at, then id. */
const newerThan = (d: Delivery, mark: Mark) => d.created_at > mark.at || (d.created_at === mark.at && d.id > mark.id);

/**
 * While `hold` (a delivery is open), deliveries newer than the newest shown when it began are held
 * back, so the open one stays where it is; `reveal` shows them. Nothing is held otherwise.
 */
export function useNewArrivals(rows: Delivery[], hold: boolean, list: string) {
  const [mark, setMark] = useState<Mark | null>(null);
  const top = rows[0];
  const current = mark?.list === list ? mark : null;
  // Derived state, set while rendering (React re-renders at once): start holding, or stop.
  if (hold && !current && top) setMark({ list, at: top.created_at, id: top.id });
  if (!hold && mark) setMark(null);
  const held = hold && current ? rows.filter((d) => newerThan(d, current)) : [];
  return {
    shown: held.length ? rows.filter((d) => !held.includes(d)) : rows,
    held: held.length,
    reveal: () => {
      if (top) setMark({ list, at: top.created_at, id: top.id });
    },
  };
}
