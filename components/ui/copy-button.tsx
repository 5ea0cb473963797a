"use client";

import { useEffect, useState } from "react";
import { cx } from "./cx";

/**
 * Copies `value` to the clipboard; says "Copied" for a moment. An icon button named by `label`,
 * or with `text` a secondary button that shows its label ("Copy").
 */
export function CopyButton({
  value,
  label = "Copy",
  text,
  className,
}: {
  value: string;
  label?: string;
  text?: string;
  className?: string;
}) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // Clipboard access can be refused (insecure origin, permissions); the value stays selectable.
    }
  }

  return (
    <button
      type="button"
      onClick={copy}
      aria-label={text ? undefined : copied ? "Copied" : label}
      title={text ? undefined : copied ? "Copied" : label}
      className={cx(
        "inline-flex items-center justify-center rounded-md",
        "focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600",
        text
          ? "h-9 gap-2 bg-white px-3.5 text-sm font-medium text-slate-700 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50"
          : "size-7 text-slate-500 hover:bg-slate-100 hover:text-slate-800",
        className,
      )}
    >
      {copied ? (
        <svg viewBox="0 0 20 20" fill="currentColor" className="size-4 text-emerald-600" aria-hidden="true">
          <path
            fillRule="evenodd"
            d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4l3.3 3.29 7.3-7.3a1 1 0 0 1 1.4 0Z"
            clipRule="evenodd"
          />
        </svg>
      ) : (
        <svg viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.5" className="size-4" aria-hidden="true">
          <rect x="7" y="7" width="9" height="10" rx="1.5" />
          <path d="M13 4.5A1.5 1.5 0 0 0 11.5 3h-6A1.5 1.5 0 0 0 4 4.5v8A1.5 1.5 0 0 0 5.5 14" />
        </svg>
      )}
      {text ? <span>{copied ? "Copied" : text}</span> : null}
    </button>
  );
}
