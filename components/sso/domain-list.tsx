import { Fragment } from "react";
import { cx } from "../ui/cx";

/** A domain with line-break opportunities after its dots and hyphens, so it never breaks mid-label. */
function Breakable({ domain }: { domain: string }) {
  return domain.split(/(?<=[.-])/).map((part, i) => (
    <Fragment key={i}>
      {i > 0 ? <wbr /> : null}
      {part}
    </Fragment>
  ));
}

/** A provider's email domains, all of them: they wrap between domains, and a long one between its labels. */
export function DomainList({ domains, className }: { domains: string[]; className?: string }) {
  if (!domains.length) return <span className="text-slate-500">None</span>;
  return (
    <ul className={cx("flex flex-wrap gap-x-2 gap-y-0.5 whitespace-normal", className)} aria-label="Domains">
      {domains.map((domain, i) => (
        <li key={domain} className="min-w-0">
          <Breakable domain={domain} />
          {/* The space keeps the text a readable "a.example, b.example"; the gap spaces it on screen. */}
          {i < domains.length - 1 ? ", " : null}
        </li>
      ))}
    </ul>
  );
}
