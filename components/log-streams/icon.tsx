import type { SVGProps } from "react";

/** Log lines flowing out to a receiver: Log streams (drawn like components/icons.tsx, kept beside its pages). */
export function StreamIcon(props: SVGProps<SVGSVGElement>) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      {...props}
    >
      <path d="M3 6h8M3 10.5h6M3 15h8M3 19.5h5" />
      <path d="M13 12.5h6m-2.5-2.5 2.5 2.5-2.5 2.5" />
      <path d="M21.5 6v13" />
    </svg>
  );
}
