import Link from "next/link";
import { Brand } from "@/components/brand";

const PAGES = [
  { href: "/docs", label: "API reference" },
  { href: "/docs/errors", label: "Error codes" },
  { href: "/docs/events", label: "Event types" },
  { href: "/docs/guides", label: "Guides" },
];

/** The header of the /docs pages: the brand, and links to the other pages and the console. */
export function DocsHeader({ current }: { current: string }) {
  return (
    <header className="border-b border-slate-200">
      <div className="mx-auto flex max-w-4xl flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6">
        <a href="/docs" className="rounded-md focus-visible:outline-2 focus-visible:outline-indigo-600">
          <Brand />
        </a>
        <nav aria-label="Documentation" className="flex gap-4 text-sm font-medium">
          {PAGES.filter((page) => page.href !== current).map((page) => (
            <a key={page.href} href={page.href} className="text-indigo-700 hover:underline">
              {page.label}
            </a>
          ))}
          <Link href="/tenants" className="text-indigo-700 hover:underline">
            Console
          </Link>
        </nav>
      </div>
    </header>
  );
}
