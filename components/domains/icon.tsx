import type { SVGProps } from "react";
import { Icon } from "../icons";

/** A globe: the tenant's domains (drawn in components/icons.tsx's frame, kept beside its one user). */
export function GlobeIcon(props: SVGProps<SVGSVGElement>) {
  return (
    <Icon {...props}>
      <circle cx="12" cy="12" r="8.5" />
      <path d="M3.5 12h17M12 3.5c2.3 2.4 3.4 5.2 3.4 8.5s-1.1 6.1-3.4 8.5c-2.3-2.4-3.4-5.2-3.4-8.5s1.1-6.1 3.4-8.5Z" />
    </Icon>
  );
}
