"use client";

import Link from "next/link";
import { consoleUrl } from "../console/urls";
import { cx } from "../ui/cx";
import type { DirectoryTab } from "./queries";

const LABELS: Record<DirectoryTab, string> = { overview: "Overview", users: "Users", groups: "Groups", activity: "Sync activity" };

/** The sections of a directory's page, as links (`?tab=`), so a section can be linked to and reloaded. */
export function SectionTabs({
  tenantId,
  directoryId,
  active,
  counts,
}: {
  tenantId: string;
  directoryId: string;
  active: DirectoryTab;
  counts: { users: number; groups: number };
}) {
  const tabs: DirectoryTab[] = ["overview", "users", "groups", "activity"];
  return (
    <nav aria-label="Directory sections" className="-mx-4 overflow-x-auto px-4 [scrollbar-width:none] sm:mx-0 sm:px-0">
      <ul className="flex w-max gap-1 rounded-lg bg-slate-100 p-1">
        {tabs.map((tab) => {
          const current = tab === active;
          const count = tab === "users" ? counts.users : tab === "groups" ? counts.groups : null;
          return (
            <li key={tab} className="shrink-0">
              <Link
                href={consoleUrl.directory(tenantId, directoryId, tab === "overview" ? undefined : new URLSearchParams({ tab }))}
                aria-current={current ? "page" : undefined}
                scroll={false}
                className={cx(
                  "inline-flex items-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap",
                  "focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600",
                  current ? "bg-white text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900",
                )}
              >
                {LABELS[tab]}
                {count !== null ? <span className="text-xs text-slate-500 tabular-nums">{count}</span> : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
