import type { SVGProps } from "react";
import { Icon } from "../icons";

/** Two people joined to a directory tree: Directory Sync (drawn in components/icons.tsx's frame, kept beside its users). */
export function DirectoryIcon(props: SVGProps<SVGSVGElement>) {
  return (
    <Icon {...props}>
      <rect x="9" y="3" width="6" height="5" rx="1" />
      <path d="M12 8v3M6 14v-3h12v3" />
      <circle cx="6" cy="16.5" r="2" />
      <circle cx="18" cy="16.5" r="2" />
      <path d="M2.5 21c.6-1.5 2-2.3 3.5-2.3s2.9.8 3.5 2.3M14.5 21c.6-1.5 2-2.3 3.5-2.3s2.9.8 3.5 2.3" />
    </Icon>
  );
}
