"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { Button } from "./button";
import { AlertIcon } from "../icons";

/**
 * A secret just created (an API token, a client secret): shown here once, never again. Takes the
 * focus when a new secret arrives (`focusKey`), so screen readers announce it.
 */
export function ShownOncePanel({
  id,
  title,
  hint,
  focusKey,
  onDismiss,
  children,
}: {
  /** Prefix of the heading's id and the panel's test id (`${id}-title`, `${id}-panel`). */
  id: string;
  title: ReactNode;
  hint: ReactNode;
  focusKey: string;
  onDismiss: () => void;
  children: ReactNode;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    headingRef.current?.focus();
  }, [focusKey]);

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="rounded-lg border border-amber-300 bg-amber-50 p-4 shadow-xs sm:p-5"
      data-testid={`${id}-panel`}
    >
      <div className="flex items-start gap-3">
        <AlertIcon className="mt-0.5 size-5 shrink-0 text-amber-700" />
        <div className="min-w-0 flex-1">
          <h2 id={`${id}-title`} ref={headingRef} tabIndex={-1} className="text-sm font-semibold text-amber-950 outline-none">
            {title}
          </h2>
          <p className="mt-1 text-sm text-amber-900">{hint}</p>
          {children}
          <div className="mt-3">
            <Button variant="ghost" size="sm" onClick={onDismiss} className="-ml-2.5 text-amber-900 hover:bg-amber-100">
              I have stored it safely, hide it
            </Button>
          </div>
        </div>
      </div>
    </section>
  );
}

/** The secret itself, selectable in one click. */
export function SecretValue({ value, testId }: { value: string; testId: string }) {
  return (
    <code
      className="block min-w-0 flex-1 rounded-md bg-white px-3 py-2 font-mono text-sm break-all text-slate-900 ring-1 ring-amber-300 select-all"
      data-testid={testId}
    >
      {value}
    </code>
  );
}
