"use client";

import { useState, type ReactNode } from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ConsoleUser } from "@/server/account/session";
import { Brand } from "../brand";
import { Badge } from "../ui/badge";
import { cx } from "../ui/cx";
import { BookIcon, CloseIcon, MenuIcon, UserIcon } from "../icons";
import { isActive, navLinks } from "./nav";
import { useSelectedTenant } from "./selected-tenant";
import { SignOutButton } from "./sign-out-button";
import { ThemeSwitch } from "./theme-switch";
import type { Theme } from "../theme";
import { TenantCommandProvider } from "./tenant-command";
import { TenantSwitcher } from "./tenant-switcher";
import { consoleUrl } from "./urls";
import { ConsoleUserProvider } from "./user-context";

const ROLE_LABEL = { operator: "Operator", support: "Support" } as const;

function Navigation({ user, onNavigate }: { user: ConsoleUser; onNavigate: () => void }) {
  const pathname = usePathname();
  const selected = useSelectedTenant();
  const links = navLinks(selected.tenant?.id ?? null, user.platformRole);
  const paths = links.map((l) => l.path);
  return (
    <nav aria-label="Main">
      <ul className="space-y-0.5">
        {links.map(({ label, href, path, icon: Icon }) => {
          const active = isActive(path, pathname, paths);
          return (
            <li key={path}>
              <Link
                href={href}
                onClick={onNavigate}
                aria-current={active ? "page" : undefined}
                className={cx(
                  "flex items-center gap-2.5 rounded-md px-2.5 py-2 text-sm font-medium",
                  "focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600",
                  active ? "bg-indigo-50 text-indigo-700" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900",
                )}
              >
                <Icon className={cx("size-5", active ? "text-indigo-600" : "text-slate-500")} />
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function Account({ user, theme, onNavigate }: { user: ConsoleUser; theme: Theme; onNavigate: () => void }) {
  const pathname = usePathname();
  const selected = useSelectedTenant();
  const current = pathname === consoleUrl.profile();
  return (
    <div className="space-y-3">
      <div className="min-w-0">
        <p className="text-xs text-slate-600">Signed in as</p>
        <Link
          href={consoleUrl.profile(selected.tenant?.id)}
          onClick={onNavigate}
          aria-current={current ? "page" : undefined}
          title={`${user.email}: your profile`}
          className={cx(
            "-mx-1 flex items-center gap-1.5 rounded px-1 text-sm font-medium hover:text-indigo-700 hover:underline",
            "focus-visible:outline-2 focus-visible:outline-indigo-600",
            current ? "text-indigo-700" : "text-slate-900",
          )}
        >
          <UserIcon className="size-4 shrink-0 text-slate-500" />
          <span className="truncate" data-testid="user-email">
            {user.email}
          </span>
        </Link>
        {user.platformRole ? (
          <Badge tone="accent" className="mt-1.5">
            {ROLE_LABEL[user.platformRole]}
          </Badge>
        ) : null}
      </div>
      <ThemeSwitch initial={theme} />
      <div className="flex items-center justify-between gap-2">
        <SignOutButton />
        <a
          href={consoleUrl.docs()}
          className="inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <BookIcon className="size-4" />
          API docs
        </a>
      </div>
    </div>
  );
}

/** The signed-in frame: sidebar on wide screens, a header with a menu on narrow ones. */
export function ConsoleShell({ user, theme, children }: { user: ConsoleUser; theme: Theme; children: ReactNode }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const close = () => setMenuOpen(false);

  return (
    <ConsoleUserProvider user={user}>
      <TenantCommandProvider>
        <a
          href="#main"
          className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium text-indigo-700 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
        >
          Skip to content
        </a>

        <aside className="fixed inset-y-0 left-0 hidden w-64 flex-col border-r border-slate-200 bg-white lg:flex">
          <div className="flex h-16 items-center px-5">
            <Link href={consoleUrl.tenants()} className="rounded-md focus-visible:outline-2 focus-visible:outline-indigo-600">
              <Brand />
            </Link>
          </div>
          <div className="flex flex-1 flex-col gap-6 overflow-y-auto px-3 pt-2 pb-4">
            <TenantSwitcher className="px-2" />
            <Navigation user={user} onNavigate={close} />
          </div>
          <div className="border-t border-slate-200 px-5 py-4">
            <Account user={user} theme={theme} onNavigate={close} />
          </div>
        </aside>

        <header className="sticky top-0 z-30 border-b border-slate-200 bg-white lg:hidden">
          <div className="flex h-14 items-center justify-between px-4">
            <Link href={consoleUrl.tenants()} className="rounded-md focus-visible:outline-2 focus-visible:outline-indigo-600">
              <Brand />
            </Link>
            <button
              type="button"
              onClick={() => setMenuOpen((open) => !open)}
              aria-expanded={menuOpen}
              aria-controls="mobile-menu"
              className="inline-flex items-center gap-1.5 rounded-md px-2 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              {menuOpen ? <CloseIcon className="size-5" /> : <MenuIcon className="size-5" />}
              Menu
            </button>
          </div>
          <div id="mobile-menu" hidden={!menuOpen} className="space-y-5 border-t border-slate-200 px-4 py-4">
            <TenantSwitcher onNavigate={close} />
            <Navigation user={user} onNavigate={close} />
            <div className="border-t border-slate-200 pt-4">
              <Account user={user} theme={theme} onNavigate={close} />
            </div>
          </div>
        </header>

        <main id="main" tabIndex={-1} className="outline-none lg:pl-64">
          <div className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-8 lg:px-8">{children}</div>
        </main>
      </TenantCommandProvider>
    </ConsoleUserProvider>
  );
}
