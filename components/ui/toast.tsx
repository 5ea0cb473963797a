"use client";

import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import { cx } from "./cx";
import { showToast, type Toast as ListedToast, type Tone } from "./toast-list";

type Toast = ListedToast & { message: ReactNode };

export interface NotifyOptions {
  /**
   * Names the notice so that a later one with the same id replaces it where it stands instead of
   * stacking under it: "A test event is on its way", then what came of it.
   */
  id?: string;
}

type Notify = (message: ReactNode, tone?: Tone, options?: NotifyOptions) => void;

const ToastContext = createContext<Notify | null>(null);

const DISMISS_AFTER_MS = 5000;

const TONES: Record<Tone, string> = {
  success: "border-emerald-200 bg-white text-slate-900 [&_[data-dot]]:bg-emerald-500",
  danger: "border-red-200 bg-white text-slate-900 [&_[data-dot]]:bg-red-500",
  info: "border-slate-200 bg-white text-slate-900 [&_[data-dot]]:bg-indigo-500",
};

/**
 * Short notices in the bottom corner, announced politely to screen readers. The live region is
 * always rendered so that a notice added later is read out.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);

  const notify = useCallback<Notify>(
    (message, tone = "success", options = {}) => {
      const id = nextId.current++;
      setToasts((all) => showToast(all, { key: options.id ?? `toast-${id}`, id, tone, message }));
      setTimeout(() => dismiss(id), DISMISS_AFTER_MS);
    },
    [dismiss],
  );

  const value = useMemo(() => notify, [notify]);

  return (
    <ToastContext.Provider value={value}>
      {children}
      <div
        aria-live="polite"
        role="status"
        className="pointer-events-none fixed inset-x-4 bottom-4 z-50 flex flex-col items-end gap-2 sm:inset-x-auto sm:right-6 sm:bottom-6"
      >
        {toasts.map((toast) => (
          <div
            key={toast.key}
            data-testid="toast"
            className={cx(
              "pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg sm:w-80",
              TONES[toast.tone],
            )}
          >
            <span data-dot aria-hidden="true" className="mt-1.5 size-2 shrink-0 rounded-full" />
            <div className="min-w-0 flex-1">{toast.message}</div>
            <button
              type="button"
              onClick={() => dismiss(toast.id)}
              className="-m-1 rounded p-1 text-slate-500 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600"
              aria-label="Dismiss notification"
            >
              <svg viewBox="0 0 20 20" fill="currentColor" className="size-4" aria-hidden="true">
                <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
              </svg>
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** `const notify = useToast(); notify("Saved")`. */
export function useToast(): Notify {
  const notify = useContext(ToastContext);
  if (!notify) throw new Error("useToast must be used inside <ToastProvider>");
  return notify;
}
