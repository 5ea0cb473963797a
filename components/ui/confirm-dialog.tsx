"use client";

import type { ReactNode } from "react";
import { Alert } from "./alert";
import { Button } from "./button";
import { Dialog } from "./dialog";

interface ConfirmDialogProps {
  title: ReactNode;
  children?: ReactNode;
  /** The confirm button's label, naming the action ("Remove member"). */
  confirmLabel: string;
  tone?: "danger" | "primary";
  pending?: boolean;
  /** Why the action failed, shown above the buttons; the dialog stays open. */
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before doing something that cannot be undone (or that locks the user out of something). */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  tone = "danger",
  pending = false,
  error,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Dialog
      title={title}
      onClose={onCancel}
      busy={pending}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={pending} data-autofocus>
            Cancel
          </Button>
          <Button variant={tone} onClick={onConfirm} loading={pending}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div className="space-y-4 text-sm text-slate-700">
        {children}
        {error ? <Alert tone="danger">{error}</Alert> : null}
      </div>
    </Dialog>
  );
}
