import { cx } from "./ui/cx";

/** The product mark: three stacked planes on an indigo tile. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={cx("size-8", className)} aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="#4f46e5" />
      <path d="M16 7 26 12l-10 5-10-5 10-5Z" fill="#fff" />
      <path d="m7.5 16.2 8.5 4.3 8.5-4.3" stroke="#c7d2fe" strokeWidth="2" fill="none" strokeLinejoin="round" />
      <path d="m7.5 20.2 8.5 4.3 8.5-4.3" stroke="#a5b4fc" strokeWidth="2" fill="none" strokeLinejoin="round" />
    </svg>
  );
}

export function Brand({ className }: { className?: string }) {
  return (
    <span className={cx("inline-flex items-center gap-2.5", className)}>
      <LogoMark />
      <span className="text-[15px] font-semibold tracking-tight text-slate-900">Control Plane</span>
    </span>
  );
}
