"use client";

import { useSyncExternalStore } from "react";

const noop = () => () => {};

/**
 * False on the server and during hydration, true once React runs the page in the browser. Forms
 * keep their submit button disabled until then, so nothing submits natively before React's
 * handlers are attached (and tests can wait for the button to be enabled).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}
