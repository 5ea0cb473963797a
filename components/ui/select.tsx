import type { ComponentProps } from "react";
import { cx } from "./cx";

/** A native select styled like Input (keyboard, screen readers and mobile pickers for free). */
export function Select({ className, ...props }: ComponentProps<"select">) {
  return (
    <select
      className={cx(
        "block h-9 w-full rounded-md border-0 bg-white pr-8 pl-3 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300",
        "focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none",
        "disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500",
        "aria-invalid:ring-red-500",
        className,
      )}
      {...props}
    />
  );
}
