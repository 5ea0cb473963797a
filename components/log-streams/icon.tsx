import type { SVGProps } from "react";
import { Icon } from "../icons";

/** Log lines flowing out to a receiver: Log streams (drawn in components/icons.tsx's frame, kept beside its pages). */
export function StreamIcon(props: SVGProps<SVGSVGElement>) {
  return (
    <Icon {...props}>
      <path d="M3 6h8M3 10.5h6M3 15h8M3 19.5h5" />
      <path d="M13 12.5h6m-2.5-2.5 2.5 2.5-2.5 2.5" />
      <path d="M21.5 6v13" />
    </Icon>
  );
}
