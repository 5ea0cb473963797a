import type { ComponentType, SVGProps } from "react";
import type { PlatformRole } from "@/server/auth/principal";
import { AppsIcon, BuildingIcon, IdBadgeIcon, KeyIcon, ScrollIcon, ShieldIcon, UsersIcon, WebhookIcon } from "../icons";
import { GlobeIcon } from "../domains/icon";
import { DirectoryIcon } from "../directories/icon";
import { StreamIcon } from "../log-streams/icon";
import { consoleUrl } from "./urls";

export interface NavItem {
  label: string;
  /**
   * "tenant": a page of the selected tenant (shown once one is selected); "account": a page of
   * the signed-in user that keeps the selected tenant in its URL; "global": neither.
   */
  kind: "global" | "tenant" | "account";
  href: (tenantId: string | null) => string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  /** Shown only to these platform roles. */
  roles?: PlatformRole[];
}

/** The console's navigation, in sidebar order. */
export const NAV: NavItem[] = [
  { label: "Tenants", kind: "global", href: () => consoleUrl.tenants(), icon: BuildingIcon },
  { label: "Members", kind: "tenant", href: (id) => consoleUrl.members(id!), icon: UsersIcon },
  { label: "SSO", kind: "tenant", href: (id) => consoleUrl.sso(id!), icon: ShieldIcon },
  { label: "Domains", kind: "tenant", href: (id) => consoleUrl.tenantSection(id!, "domains"), icon: GlobeIcon },
  { label: "Audit log", kind: "tenant", href: (id) => consoleUrl.audit(id!), icon: ScrollIcon },
  { label: "Webhooks", kind: "tenant", href: (id) => consoleUrl.webhooks(id!), icon: WebhookIcon },
  { label: "Log streams", kind: "tenant", href: (id) => consoleUrl.logStreams(id!), icon: StreamIcon },
  { label: "Directory Sync", kind: "tenant", href: (id) => consoleUrl.directories(id!), icon: DirectoryIcon },
  { label: "API tokens", kind: "account", href: (id) => consoleUrl.tokens(id), icon: KeyIcon },
  { label: "Platform users", kind: "account", href: (id) => consoleUrl.users(id), icon: IdBadgeIcon, roles: ["operator", "support"] },
  { label: "Audit search", kind: "account", href: (id) => consoleUrl.auditSearch(id), icon: ScrollIcon, roles: ["operator", "support"] },
  { label: "Applications", kind: "account", href: (id) => consoleUrl.applications(id), icon: AppsIcon, roles: ["operator"] },
  {
    label: "Certificates",
    kind: "account",
    href: (id) => consoleUrl.certificates(id),
    icon: ShieldIcon,
    roles: ["operator", "support"],
  },
];

export interface NavLink {
  label: string;
  href: string;
  /** The path the link is active on (and below). */
  path: string;
  icon: NavItem["icon"];
}

/**
 * The links to show: tenant pages only for a tenant the user can see (`tenantId` is null while
 * none is selected, or when the one in the URL is out of reach), items limited to roles filtered.
 */
export function navLinks(tenantId: string | null, platformRole: PlatformRole | null): NavLink[] {
  return NAV.flatMap((item) => {
    if (item.kind === "tenant" && !tenantId) return [];
    if (item.roles && !(platformRole && item.roles.includes(platformRole))) return [];
    const href = item.href(tenantId);
    return [{ label: item.label, href, path: href.split("?")[0]!, icon: item.icon }];
  });
}

/** Whether `pathname` is the item's page or below it (longest match wins among siblings). */
export function isActive(path: string, pathname: string, all: string[]): boolean {
  const within = (h: string) => pathname === h || pathname.startsWith(`${h}/`);
  if (!within(path)) return false;
  return !all.some((other) => other !== path && other.length > path.length && within(other));
}
