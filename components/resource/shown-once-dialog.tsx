"use client";

import type { ReactNode } from "react";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { AlertIcon } from "../icons";

interface ShownOnceDialogProps {
  title: string;
  /** The resource it belongs to. */
  description: ReactNode;
  size?: "sm" | "md";
  /** What is shown once ("secret", "token"): "You won't see this secret again." */
  what: string;
  /** What to do with it, after that warning. */
  warning: ReactNode;
  /** The footer's button, which closes the dialog ("I have stored it safely"). */
  stored: string;
  onClose: () => void;
  /** The value itself, and how to use it. */
  children: ReactNode;
}

/**
 * A credential just made (a signing secret, a SCIM token): the server keeps only its hash or keeps
 * it sealed, so this dialog is the one time it is shown; the button that closes it takes the focus.
 */
export function ShownOnceDialog({ title, description, size, what, warning, stored, onClose, children }: ShownOnceDialogProps) {
  return (
    <Dialog
      title={title}
      description={description}
      size={size}
      onClose={onClose}
      footer={
        <Button onClick={onClose} data-autofocus>
          {stored}
        </Button>
      }
    >
      <div className="space-y-4 text-sm text-slate-700">
        <div className="flex gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950">
          <AlertIcon className="mt-0.5 size-5 shrink-0 text-amber-700" />
          <p>
            <span className="font-semibold">{`You won't see this ${what} again.`}</span> {warning}
          </p>
        </div>
        {children}
      </div>
    </Dialog>
  );
}
