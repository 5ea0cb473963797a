"use client";

import { CopyButton } from "../ui/copy-button";
import { SecretValue, ShownOncePanel } from "../ui/shown-once-panel";

export interface ShownSecret {
  id: string;
  name: string;
  clientId: string;
  clientSecret: string;
}

/** An application's client secret just created or rotated: shown here once, never again. */
export function NewSecretPanel({ secret, onDismiss }: { secret: ShownSecret; onDismiss: () => void }) {
  return (
    <ShownOncePanel
      id="new-secret"
      title={<>Copy the client secret of “{secret.name}” now</>}
      hint="You will not see it again: only a fingerprint of it is stored. If you lose it, rotate it."
      focusKey={secret.clientSecret}
      onDismiss={onDismiss}
    >
      <dl className="mt-3 space-y-2 text-sm">
        {[
          { label: "Client ID", value: secret.clientId, copy: "Copy client ID", testId: "new-client-id" },
          { label: "Client secret", value: secret.clientSecret, copy: "Copy client secret", testId: "new-client-secret" },
        ].map(({ label, value, copy, testId }) => (
          <div key={testId} className="flex flex-col gap-1 sm:flex-row sm:items-center sm:gap-2">
            <dt className="w-28 shrink-0 font-medium text-amber-950">{label}</dt>
            <dd className="flex min-w-0 flex-1 items-center gap-2">
              <SecretValue value={value} testId={testId} />
              <CopyButton value={value} label={copy} />
            </dd>
          </div>
        ))}
      </dl>
    </ShownOncePanel>
  );
}
