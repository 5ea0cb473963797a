/** The notices shown at once, as a list the toast provider (./toast.tsx) keeps. */

export type Tone = "success" | "danger" | "info";

export interface Toast {
  /** The notice's name: a later notice with the same one takes its place. */
  key: string;
  /** This version of it, which its timer dismisses (a replacement gets a new one, and a new timer). */
  id: number;
  tone: Tone;
  message: unknown;
}

/** At most this many notices at once: the oldest goes. */
export const MAX_SHOWN = 3;

/** The notices after `toast` is shown: in the place of the one with its key, else last (the oldest past MAX_SHOWN gone). */
export function showToast<T extends Toast>(all: T[], toast: T): T[] {
  const at = all.findIndex((t) => t.key === toast.key);
  if (at >= 0) return all.map((t, i) => (i === at ? toast : t));
  return [...all.slice(-(MAX_SHOWN - 1)), toast];
}
