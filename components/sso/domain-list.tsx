import { cx } from "../ui/cx";

/** A provider's email domains, all of them: they wrap between domains (and inside one only if it alone is too long). */
export function DomainList({ domains, className }: { domains: string[]; className?: string }) {
  if (!domains.length) return <span className="text-slate-500">None</span>;
  return (
    <ul className={cx("flex flex-wrap gap-x-2 gap-y-0.5 whitespace-normal", className)} aria-label="Domains">
      {domains.map((domain, i) => (
        <li key={domain} className="min-w-0 [overflow-wrap:anywhere]">
          {domain}
          {/* The space keeps the text a readable "a.example, b.example"; the gap spaces it on screen. */}
          {i < domains.length - 1 ? ", " : null}
        </li>
      ))}
    </ul>
  );
}
