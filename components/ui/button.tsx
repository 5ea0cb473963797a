import type { ButtonHTMLAttributes } from "react";
import { cx } from "./cx";
import { Spinner } from "./spinner";

type Variant = "primary" | "secondary" | "ghost" | "danger";
type Size = "sm" | "md";

// A busy button is disabled too, but keeps its colours so its label stays readable.
const VARIANTS: Record<Variant, string> = {
  primary: "bg-indigo-600 text-on-solid shadow-sm hover:bg-indigo-700 disabled:bg-indigo-400 aria-busy:bg-indigo-600",
  secondary:
    "bg-white text-slate-700 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:text-slate-500 disabled:bg-slate-50 aria-busy:text-slate-700",
  ghost: "text-slate-700 hover:bg-slate-100 disabled:text-slate-500 aria-busy:text-slate-700",
  danger: "bg-red-600 text-on-solid shadow-sm hover:bg-red-700 disabled:bg-red-400 aria-busy:bg-red-600",
};

const SIZES: Record<Size, string> = {
  sm: "h-8 gap-1.5 px-2.5 text-xs",
  md: "h-9 gap-2 px-3.5 text-sm",
};

/** Shared by Button and links styled as buttons. */
export function buttonClasses(variant: Variant = "primary", size: Size = "md", className?: string) {
  return cx(
    "inline-flex shrink-0 items-center justify-center rounded-md font-medium whitespace-nowrap transition-colors",
    "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
    "disabled:cursor-not-allowed",
    VARIANTS[variant],
    SIZES[size],
    className,
  );
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  size?: Size;
  /** Shows a spinner and disables the button. */
  loading?: boolean;
}

export function Button({ variant, size, loading = false, disabled, className, children, type = "button", ...props }: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={buttonClasses(variant, size, className)}
      {...props}
    >
      {loading ? <Spinner /> : null}
      {children}
    </button>
  );
}
