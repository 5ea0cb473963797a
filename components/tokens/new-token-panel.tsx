"use client";

import { CopyButton } from "../ui/copy-button";
import { SecretValue, ShownOncePanel } from "../ui/shown-once-panel";
import type { CreatedToken } from "./create-token-dialog";

/** The value of a token just created: shown here once, never again. */
export function NewTokenPanel({ token, onDismiss }: { token: CreatedToken; onDismiss: () => void }) {
  return (
    <ShownOncePanel
      id="new-token"
      title={<>Copy your new token “{token.name}” now</>}
      hint="You will not see it again: only a fingerprint of it is stored. If you lose it, revoke it and create another."
      focusKey={token.id}
      onDismiss={onDismiss}
    >
      <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-center">
        <SecretValue value={token.token} testId="new-token-value" />
        <CopyButton value={token.token} label="Copy token" text="Copy" />
      </div>
    </ShownOncePanel>
  );
}
