import type { ButtonHTMLAttributes } from "react";
import { cx } from "./cx";
import { Spinner } from "./spinner";

interface SwitchProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, "onChange" | "role"> {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  /** A change is on its way: shows a spinner in the knob and ignores clicks. */
  busy?: boolean;
}

/** An on/off switch (role="switch", announced as on or off); name it with aria-label or a label. */
export function Switch({ checked, onCheckedChange, busy = false, disabled, className, ...props }: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-busy={busy || undefined}
      disabled={disabled || busy}
      onClick={() => onCheckedChange(!checked)}
      className={cx(
        "relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
        "disabled:cursor-not-allowed",
        // Paler when it cannot be changed (but not while busy: the change is on its way).
        checked ? (disabled && !busy ? "bg-indigo-300" : "bg-indigo-600") : disabled && !busy ? "bg-slate-200" : "bg-slate-300",
        className,
      )}
      {...props}
    >
      <span
        aria-hidden="true"
        className={cx(
          "inline-flex size-5 items-center justify-center rounded-full bg-white shadow ring-1 ring-slate-900/5 transition-transform",
          checked ? "translate-x-5.5" : "translate-x-0.5",
        )}
      >
        {busy ? <Spinner className="size-3.5 text-indigo-600" /> : null}
      </span>
    </button>
  );
}
