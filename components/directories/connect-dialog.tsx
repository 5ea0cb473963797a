"use client";

import { ShownOnceDialog } from "../resource/shown-once-dialog";
import { PROVIDER_STEPS } from "./provider-steps";
import { PasteValue, SetupSteps } from "./setup-steps";
import type { DirectoryWithToken } from "./types";

/**
 * A directory's SCIM base URL and bearer token right after it was created or its token rotated:
 * the token is shown this once (only its hash is kept), beside the IdP's steps to paste both.
 */
export function ConnectDialog({
  directory,
  reason,
  onClose,
}: {
  directory: DirectoryWithToken;
  reason: "created" | "rotated";
  onClose: () => void;
}) {
  const guide = PROVIDER_STEPS[directory.provider];
  return (
    <ShownOnceDialog
      title={reason === "created" ? `Directory created: connect ${guide.name}` : "Copy the new SCIM token"}
      description={<span className="wrap-anywhere">{directory.name}</span>}
      size="md"
      what="token"
      warning={
        reason === "rotated"
          ? `The old token stopped working just now: paste this one into ${guide.name} before its next sync.`
          : `Paste it into ${guide.name} now, or rotate it later to get a new one.`
      }
      stored="I have stored the token safely"
      onClose={onClose}
    >
      {reason === "created" ? (
        <SetupSteps
          provider={directory.provider}
          values={
            <div className="space-y-3">
              <PasteValue label={guide.labels.url} value={directory.scim_base_url} testId="scim-base-url" />
              <PasteValue label={guide.labels.token} value={directory.token} testId="scim-token" secret />
            </div>
          }
        />
      ) : (
        <div className="space-y-3">
          <PasteValue label={guide.labels.token} value={directory.token} testId="scim-token" secret />
          <PasteValue label={guide.labels.url} value={directory.scim_base_url} testId="scim-base-url" />
        </div>
      )}
    </ShownOnceDialog>
  );
}
