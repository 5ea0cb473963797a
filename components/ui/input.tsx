import type { ComponentProps } from "react";
import { cx } from "./cx";

export function Input({ className, ...props }: ComponentProps<"input">) {
  return (
    <input
      className={cx(
        "block h-9 w-full rounded-md border-0 bg-white px-3 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300",
        "placeholder:text-slate-500 focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none",
        "disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500",
        "aria-invalid:ring-red-500 aria-invalid:focus:ring-red-600",
        className,
      )}
      {...props}
    />
  );
}
