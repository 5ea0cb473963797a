"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { consoleUrl } from "../console/urls";
import { cx } from "../ui/cx";

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
  { label: "Audit log", segment: "audit" },
  { label: "Webhooks", segment: "webhooks" },
];

export function tenantTabHref(tenantId: string, tab: TenantTab): string {
  return consoleUrl.tenantSection(tenantId, tab.segment);
}

/** The tab whose page `pathname` is (or is below), or undefined. */
export function activeTenantTab(tenantId: string, pathname: string): TenantTab | undefined {
  const base = consoleUrl.tenant(tenantId);
  if (pathname === base) return TENANT_TABS.find((tab) => tab.segment === "");
  return TENANT_TABS.find((tab) => tab.segment && (pathname === `${base}/${tab.segment}` || pathname.startsWith(`${base}/${tab.segment}/`)));
}

/** Links to the tenant's pages; scrolls sideways on narrow screens. */
export function TenantTabs({ tenantId }: { tenantId: string }) {
  const pathname = usePathname();
  const active = activeTenantTab(tenantId, pathname);
  return (
    <nav aria-label="Tenant sections" className="-mx-4 mb-6 overflow-x-auto border-b border-slate-200 px-4 sm:mx-0 sm:px-0">
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
                  current ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900",
                )}
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
