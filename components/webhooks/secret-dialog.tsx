"use client";

import { ShownOnceDialog } from "../resource/shown-once-dialog";
import { CopyButton } from "../ui/copy-button";

interface SecretDialogProps {
  /** "created" right after adding the webhook; "rotated" after a new secret replaced the old. */
  reason: "created" | "rotated";
  url: string;
  secret: string;
  onClose: () => void;
}

/** A webhook's signing secret, shown this once: the server keeps it encrypted and never returns it. */
export function SecretDialog({ reason, url, secret, onClose }: SecretDialogProps) {
  return (
    <ShownOnceDialog
      title={reason === "created" ? "Webhook added: copy its signing secret" : "Copy the new signing secret"}
      description={<span className="break-all">{url}</span>}
      what="secret"
      warning={
        <>
          Store it where your receiver can read it: it checks the <code className="font-mono text-xs">webhook-signature</code> header
          (Standard Webhooks) of every delivery with it.
        </>
      }
      stored="I have stored it safely"
      onClose={onClose}
    >
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <code
          className="block min-w-0 flex-1 rounded-md bg-slate-50 px-3 py-2 font-mono text-sm break-all text-slate-900 ring-1 ring-slate-300 select-all"
          data-testid="webhook-secret"
        >
          {secret}
        </code>
        <CopyButton value={secret} label="Copy secret" text="Copy" />
      </div>
      {reason === "rotated" ? (
        <p>
          The old secret keeps signing deliveries alongside the new one for 24 hours, so you can update your receiver without missing any.
        </p>
      ) : null}
    </ShownOnceDialog>
  );
}
