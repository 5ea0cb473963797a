"use client";

import { useEffect, useId, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from "react";
import { Button } from "./button";
import { cx } from "./cx";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface DialogProps {
  title: ReactNode;
  description?: ReactNode;
  /** Escape, the close button and a click on the backdrop call this. */
  onClose: () => void;
  children: ReactNode;
  /** Buttons along the bottom edge. */
  footer?: ReactNode;
  /** The body is a form: the footer's submit button submits it. */
  onSubmit?: (event: React.FormEvent<HTMLFormElement>) => void;
  size?: "sm" | "md";
  /** "side": a full-height panel along the right edge (a drawer), for reading a record in detail. */
  placement?: "center" | "side";
  /** Dialogs with a pending request ignore Escape and the backdrop. */
  busy?: boolean;
  className?: string;
}

/**
 * The dialog's inside: title, body and footer in a column as tall as the dialog may be, so that
 * only the body scrolls and the footer's buttons stay in view however long the form (a 900 px
 * high window, a phone).
 */
const FRAME = "flex h-full max-h-[inherit] flex-col";

/**
 * A modal dialog on the native `<dialog>` (page behind made inert, Escape closes), with focus kept
 * inside while it is open and given back to where it was when it closes. Render it only while it
 * is open: `{open ? <Dialog …/> : null}`. The first element with `data-autofocus`, else the first
 * field, gets focus.
 */
export function Dialog({
  title,
  description,
  onClose,
  children,
  footer,
  onSubmit,
  size = "sm",
  placement = "center",
  busy = false,
  className,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const closeRef = useRef(onClose);
  const busyRef = useRef(busy);

  useEffect(() => {
    closeRef.current = onClose;
    busyRef.current = busy;
  });

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement as HTMLElement | null;
    if (!dialog.open) dialog.showModal();
    const first =
      dialog.querySelector<HTMLElement>("[data-autofocus]") ??
      dialog.querySelector<HTMLElement>("input:not([disabled]), select:not([disabled]), textarea:not([disabled])") ??
      dialog.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    return () => {
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  // Tab and Shift+Tab wrap around inside the dialog instead of leaving for the browser's chrome.
  function trapTab(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== "Tab" || !ref.current) return;
    const items = Array.from(ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.offsetParent !== null);
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  const body = (
    <>
      <div className="shrink-0 px-5 pt-5 pb-3 sm:px-6">
        <div className="flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-base font-semibold text-slate-900">
            {title}
          </h2>
          <button
            type="button"
            onClick={() => !busyRef.current && closeRef.current()}
            aria-label="Close"
            className="-mt-1 -mr-2 rounded-md p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <svg viewBox="0 0 20 20" fill="currentColor" className="size-5" aria-hidden="true">
              <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
            </svg>
          </button>
        </div>
        {description ? (
          <p id={descriptionId} className="mt-1.5 text-sm text-slate-600">
            {description}
          </p>
        ) : null}
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-5 pt-1 pb-4 sm:px-6" data-dialog-body>
        {children}
      </div>
      {footer ? (
        <div className="flex shrink-0 flex-col-reverse gap-2 border-t border-slate-200 bg-slate-50 px-5 py-3 sm:flex-row sm:justify-end sm:px-6">
          {footer}
        </div>
      ) : null}
    </>
  );

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        if (!busyRef.current) closeRef.current();
      }}
      onKeyDown={trapTab}
      onClick={(event) => {
        // A click on the backdrop lands on the <dialog> itself.
        if (event.target === ref.current && !busyRef.current) closeRef.current();
      }}
      className={cx(
        "overflow-hidden bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/40 dark:backdrop:bg-black/60",
        placement === "side"
          ? "my-0 mr-0 ml-auto h-dvh max-h-dvh w-full max-w-xl"
          : cx("m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] rounded-lg", size === "sm" ? "max-w-md" : "max-w-lg"),
        className,
      )}
    >
      {onSubmit ? (
        <form onSubmit={onSubmit} noValidate className={FRAME}>
          {body}
        </form>
      ) : (
        <div className={FRAME}>{body}</div>
      )}
    </dialog>
  );
}

/** The footer of a form dialog: Cancel, and the submit button with its label (both wait while it runs). */
export function FormActions({ onCancel, pending, submitLabel }: { onCancel: () => void; pending: boolean; submitLabel: ReactNode }) {
  return (
    <>
      <Button variant="secondary" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button type="submit" loading={pending}>
        {submitLabel}
      </Button>
    </>
  );
}
