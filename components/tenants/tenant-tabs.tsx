"use client";

import { useEffect, useRef, useState } from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { consoleUrl } from "../console/urls";
import { cx } from "../ui/cx";
import { ChevronLeftIcon, ChevronRightIcon } from "../icons";

export interface TenantTab {
  label: string;
  /** Below /tenants/{id}: "" for the overview, else the page's segment ("members"). */
  segment: string;
}

/** The pages of one tenant, in tab order. Audit log and webhooks join here. */
export const TENANT_TABS: TenantTab[] = [
  { label: "Overview", segment: "" },
  { label: "Members", segment: "members" },
  { label: "SSO", segment: "sso" },
  { label: "Domains", segment: "domains" },
  { label: "Audit log", segment: "audit" },
  { label: "Webhooks", segment: "webhooks" },
  { label: "Log streams", segment: "log-streams" },
  { label: "Directory Sync", segment: "directories" },
];

export function tenantTabHref(tenantId: string, tab: TenantTab): string {
  return consoleUrl.tenantSection(tenantId, tab.segment);
}

/** The tab whose page `pathname` is (or is below), or undefined. */
export function activeTenantTab(tenantId: string, pathname: string): TenantTab | undefined {
  const base = consoleUrl.tenant(tenantId);
  if (pathname === base) return TENANT_TABS.find((tab) => tab.segment === "");
  return TENANT_TABS.find(
    (tab) => tab.segment && (pathname === `${base}/${tab.segment}` || pathname.startsWith(`${base}/${tab.segment}/`)),
  );
}

/**
 * Which ends of a sideways-scrolling strip have more beyond them, kept current on scroll and
 * resize; the active tab is scrolled into view once.
 */
function useOverflow() {
  const ref = useRef<HTMLElement>(null);
  const [more, setMore] = useState({ left: false, right: false });
  useEffect(() => {
    const strip = ref.current;
    if (!strip) return;
    const update = () =>
      setMore({
        left: strip.scrollLeft > 1,
        right: strip.scrollLeft + strip.clientWidth < strip.scrollWidth - 1,
      });
    strip.querySelector<HTMLElement>('[aria-current="page"]')?.scrollIntoView({ block: "nearest", inline: "nearest" });
    update();
    strip.addEventListener("scroll", update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(strip);
    return () => {
      strip.removeEventListener("scroll", update);
      observer.disconnect();
    };
  }, []);
  return { ref, more };
}

/**
 * Links to the tenant's pages. On narrow screens the strip scrolls sideways, and a fade with a
 * chevron at an edge shows there are more tabs that way.
 */
export function TenantTabs({ tenantId }: { tenantId: string }) {
  const pathname = usePathname();
  const active = activeTenantTab(tenantId, pathname);
  const { ref, more } = useOverflow();
  return (
    <div className="relative -mx-4 mb-6 sm:mx-0">
      <nav ref={ref} aria-label="Tenant sections" className="overflow-x-auto border-b border-slate-200 px-4 [scrollbar-width:none] sm:px-0">
        <ul className="flex gap-6">
          {TENANT_TABS.map((tab) => {
            const current = tab === active;
            return (
              <li key={tab.label} className="shrink-0">
                <Link
                  href={tenantTabHref(tenantId, tab)}
                  aria-current={current ? "page" : undefined}
                  className={cx(
                    "-mb-px inline-flex border-b-2 px-0.5 py-2.5 text-sm font-medium whitespace-nowrap",
                    "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
                    current
                      ? "border-indigo-600 text-indigo-700"
                      : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900",
                  )}
                >
                  {tab.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      {more.left ? (
        <div
          aria-hidden="true"
          data-testid="tabs-more-left"
          className="pointer-events-none absolute inset-y-0 left-0 flex w-10 items-center bg-gradient-to-r from-slate-50 to-transparent pl-1"
        >
          <ChevronLeftIcon className="size-4 text-slate-500" />
        </div>
      ) : null}
      {more.right ? (
        <div
          aria-hidden="true"
          data-testid="tabs-more-right"
          className="pointer-events-none absolute inset-y-0 right-0 flex w-10 items-center justify-end bg-gradient-to-l from-slate-50 to-transparent pr-1"
        >
          <ChevronRightIcon className="size-4 text-slate-500" />
        </div>
      ) : null}
    </div>
  );
}
