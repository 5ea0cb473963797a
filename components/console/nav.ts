import type { ComponentType, SVGProps } from "react";
import { BuildingIcon, KeyIcon, ShieldIcon, UsersIcon } from "../icons";
import { consoleUrl } from "./urls";

export interface NavItem {
  label: string;
  /** A path, or for pages of one tenant a function of the selected tenant's id. */
  href: string | ((tenantId: string) => string);
  icon: ComponentType<SVGProps<SVGSVGElement>>;
}

/**
 * The console's navigation. Tenant pages (members, SSO, audit log, webhooks) take a function
 * href and appear once a tenant is selected; account pages (API tokens) take a plain path.
 */
export const NAV: NavItem[] = [
  { label: "Tenants", href: consoleUrl.tenants(), icon: BuildingIcon },
  { label: "Members", href: consoleUrl.members, icon: UsersIcon },
  { label: "SSO", href: consoleUrl.sso, icon: ShieldIcon },
  { label: "API tokens", href: consoleUrl.tokens(), icon: KeyIcon },
];

/** The link for an item, or null for a tenant page while no tenant is selected. */
export function hrefOf(item: NavItem, tenantId: string | null): string | null {
  if (typeof item.href === "string") return item.href;
  return tenantId ? item.href(tenantId) : null;
}

/** Whether `pathname` is the item's page or below it (longest match wins among siblings). */
export function isActive(href: string, pathname: string, all: string[]): boolean {
  const within = (h: string) => pathname === h || pathname.startsWith(`${h}/`);
  if (!within(href)) return false;
  return !all.some((other) => other !== href && other.length > href.length && within(other));
}
