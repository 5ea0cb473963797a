"use client";

import { useEffect, useRef } from "react";
import { Button } from "../ui/button";
import { CopyButton } from "../ui/copy-button";
import { AlertIcon } from "../icons";
import type { CreatedToken } from "./create-token-dialog";

/** The value of a token just created: shown here once, never again. */
export function NewTokenPanel({ token, onDismiss }: { token: CreatedToken; onDismiss: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    headingRef.current?.focus();
  }, [token.id]);

  return (
    <section
      aria-labelledby="new-token-title"
      className="rounded-lg border border-amber-300 bg-amber-50 p-4 shadow-xs sm:p-5"
      data-testid="new-token-panel"
    >
      <div className="flex items-start gap-3">
        <AlertIcon className="mt-0.5 size-5 shrink-0 text-amber-700" />
        <div className="min-w-0 flex-1">
          <h2 id="new-token-title" ref={headingRef} tabIndex={-1} className="text-sm font-semibold text-amber-950 outline-none">
            Copy your new token “{token.name}” now
          </h2>
          <p className="mt-1 text-sm text-amber-900">
            You will not see it again: only a fingerprint of it is stored. If you lose it, revoke it and create another.
          </p>
          <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-center">
            <code
              className="block min-w-0 flex-1 rounded-md bg-white px-3 py-2 font-mono text-sm break-all text-slate-900 ring-1 ring-amber-300 select-all"
              data-testid="new-token-value"
            >
              {token.token}
            </code>
            <CopyButton value={token.token} label="Copy token" text="Copy" />
          </div>
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
