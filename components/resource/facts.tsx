import type { ReactNode } from "react";
import { CopyButton } from "../ui/copy-button";
import { cx } from "../ui/cx";
import { EnabledSwitch, type EnabledSwitchProps } from "./parts";

/** One fact of a resource's page: a term over its value. `className` spans it over more columns. */
export function Fact({ term, children, className }: { term: string; children: ReactNode; className?: string }) {
  return (
    <div className={cx("min-w-0", className)}>
      <dt className="text-xs font-medium text-slate-600">{term}</dt>
      <dd className="mt-1 text-sm break-words text-slate-900">{children}</dd>
    </div>
  );
}

/** The grid of a page's facts: one column on phones, two from `sm`, then three (or four) from `lg`. */
export function Facts({ columns = 3, className, children }: { columns?: 3 | 4; className?: string; children: ReactNode }) {
  return (
    <dl
      className={cx(
        "grid grid-flow-row-dense gap-x-6 gap-y-4 sm:grid-cols-2",
        columns === 4 ? "lg:grid-cols-4" : "lg:grid-cols-3",
        className,
      )}
    >
      {children}
    </dl>
  );
}

/** A resource's id with a copy button; `wide` gives it two columns, where it fits on one line. */
export function IdFact({ term, id, copyLabel, wide = false }: { term: string; id: string; copyLabel: string; wide?: boolean }) {
  return (
    <Fact term={term} className={wide ? "sm:col-span-2" : undefined}>
      <span className="inline-flex max-w-full items-start gap-1">
        <code className={cx("font-mono text-xs break-all text-slate-800", wide && "sm:break-normal")}>{id}</code>
        <CopyButton value={id} label={copyLabel} className="-my-1.5 shrink-0" />
      </span>
    </Fact>
  );
}

/** "Status": the on/off switch beside what it means for this resource now. */
export function EnabledFact({ toggle, children }: { toggle: EnabledSwitchProps; children: ReactNode }) {
  return (
    <Fact term="Status">
      <div className="flex items-start gap-3">
        <EnabledSwitch {...toggle} />
        {children}
      </div>
    </Fact>
  );
}
