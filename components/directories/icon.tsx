import type { SVGProps } from "react";

/** Two people joined to a directory tree: Directory Sync (drawn like components/icons.tsx, kept beside its users). */
export function DirectoryIcon(props: SVGProps<SVGSVGElement>) {
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
      <rect x="9" y="3" width="6" height="5" rx="1" />
      <path d="M12 8v3M6 14v-3h12v3" />
      <circle cx="6" cy="16.5" r="2" />
      <circle cx="18" cy="16.5" r="2" />
      <path d="M2.5 21c.6-1.5 2-2.3 3.5-2.3s2.9.8 3.5 2.3M14.5 21c.6-1.5 2-2.3 3.5-2.3s2.9.8 3.5 2.3" />
    </svg>
  );
}
