"use client";

import { useId } from "react";
import { useParams, usePathname, useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { cx } from "../ui/cx";
import { consoleUrl } from "./urls";

/** How many tenants the switcher lists; beyond that, use the Tenants page. */
const SWITCHER_LIMIT = 100;

/** The same page of another tenant when on a tenant's page (members stay members), else its overview. */
function sameSectionOf(pathname: string, current: string, next: string): string {
  const base = consoleUrl.tenant(current);
  if (current && pathname.startsWith(`${base}/`)) return consoleUrl.tenantSection(next, pathname.slice(base.length + 1).split("/")[0]!);
  return consoleUrl.tenant(next);
}

/** Picks the tenant to work in; choosing one opens its page (the same section when on one). */
export function TenantSwitcher({ onNavigate, className }: { onNavigate?: () => void; className?: string }) {
  const id = useId();
  const trpc = useTRPC();
  const router = useRouter();
  const params = useParams<{ tenantId?: string }>();
  const pathname = usePathname();
  const current = params.tenantId ?? "";
  const tenants = useQuery(trpc.tenants.list.queryOptions({ page_size: SWITCHER_LIMIT }));

  const results = tenants.data?.results ?? [];
  const listed = results.some((t) => t.id === current);
  const placeholder = tenants.isPending
    ? "Loading tenants…"
    : tenants.isError
      ? "Tenants unavailable"
      : results.length === 0
        ? "No tenants yet"
        : "Select a tenant";

  return (
    <div className={cx("space-y-1.5", className)}>
      <label htmlFor={id} className="block text-xs font-medium tracking-wide text-slate-600 uppercase">
        Tenant
      </label>
      <select
        id={id}
        value={listed ? current : ""}
        disabled={!tenants.isSuccess || results.length === 0}
        onChange={(event) => {
          if (!event.target.value) return;
          onNavigate?.();
          router.push(sameSectionOf(pathname, current, event.target.value));
        }}
        className={cx(
          "block h-9 w-full truncate rounded-md border-0 bg-white pr-8 pl-3 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300",
          "focus:ring-2 focus:ring-indigo-600 focus:outline-none disabled:bg-slate-50 disabled:text-slate-600",
        )}
      >
        <option value="" disabled>
          {placeholder}
        </option>
        {results.map((tenant) => (
          <option key={tenant.id} value={tenant.id}>
            {tenant.name}
          </option>
        ))}
      </select>
    </div>
  );
}
