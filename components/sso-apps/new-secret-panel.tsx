"use client";

import { useEffect, useRef } from "react";
import { Button } from "../ui/button";
import { CopyButton } from "../ui/copy-button";
import { AlertIcon } from "../icons";

export interface ShownSecret {
  id: string;
  name: string;
  clientId: string;
  clientSecret: string;
}

/** An application's client secret just created or rotated: shown here once, never again. */
export function NewSecretPanel({ secret, onDismiss }: { secret: ShownSecret; onDismiss: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    headingRef.current?.focus();
  }, [secret.clientSecret]);

  return (
    <section
      aria-labelledby="new-secret-title"
      className="rounded-lg border border-amber-300 bg-amber-50 p-4 shadow-xs sm:p-5"
      data-testid="new-secret-panel"
    >
      <div className="flex items-start gap-3">
        <AlertIcon className="mt-0.5 size-5 shrink-0 text-amber-700" />
        <div className="min-w-0 flex-1">
          <h2 id="new-secret-title" ref={headingRef} tabIndex={-1} className="text-sm font-semibold text-amber-950 outline-none">
            Copy the client secret of “{secret.name}” now
          </h2>
          <p className="mt-1 text-sm text-amber-900">
            You will not see it again: only a fingerprint of it is stored. If you lose it, rotate it.
          </p>
          <dl className="mt-3 space-y-2 text-sm">
            {[
              { label: "Client ID", value: secret.clientId, copy: "Copy client ID", testId: "new-client-id" },
              { label: "Client secret", value: secret.clientSecret, copy: "Copy client secret", testId: "new-client-secret" },
            ].map(({ label, value, copy, testId }) => (
              <div key={testId} className="flex flex-col gap-1 sm:flex-row sm:items-center sm:gap-2">
                <dt className="w-28 shrink-0 font-medium text-amber-950">{label}</dt>
                <dd className="flex min-w-0 flex-1 items-center gap-2">
                  <code
                    className="block min-w-0 flex-1 rounded-md bg-white px-3 py-2 font-mono text-sm break-all text-slate-900 ring-1 ring-amber-300 select-all"
                    data-testid={testId}
                  >
                    {value}
                  </code>
                  <CopyButton value={value} label={copy} />
                </dd>
              </div>
            ))}
          </dl>
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
