"use client";

import { useSyncExternalStore } from "react";
import { cx } from "../ui/cx";
import { ChevronDownIcon } from "../icons";
import { useSelectedTenant } from "./selected-tenant";
import { useOpenTenantCommand } from "./tenant-command";

const subscribeNothing = () => () => undefined;

/** "⌘K" on Apple platforms, "Ctrl K" elsewhere (decided in the browser; the server says Ctrl). */
function useShortcutLabel(): string {
  return useSyncExternalStore(
    subscribeNothing,
    () => (/Mac|iPhone|iPad/.test(navigator.platform) ? "⌘K" : "Ctrl K"),
    () => "Ctrl K",
  );
}

/** Shows the selected tenant; opens the type-ahead switcher (also ⌘K / Ctrl+K). */
export function TenantSwitcher({ onNavigate, className }: { onNavigate?: () => void; className?: string }) {
  const open = useOpenTenantCommand();
  const selected = useSelectedTenant();
  const shortcut = useShortcutLabel();
  const name = selected.tenant?.name ?? (selected.pending ? "Loading…" : null);

  return (
    <div className={cx("space-y-1.5", className)}>
      <p className="block text-xs font-medium tracking-wide text-slate-600 uppercase">Tenant</p>
      <button
        type="button"
        aria-haspopup="dialog"
        aria-label={`${name ? `Tenant: ${name}.` : "No tenant selected."} Switch tenant (${shortcut})`}
        onClick={() => {
          onNavigate?.();
          open();
        }}
        className={cx(
          "flex h-9 w-full items-center gap-2 rounded-md bg-white pr-2 pl-3 text-left text-sm shadow-sm ring-1 ring-slate-300 ring-inset",
          "hover:bg-slate-50 focus-visible:ring-2 focus-visible:ring-indigo-600 focus-visible:outline-none",
        )}
      >
        <span className={cx("min-w-0 flex-1 truncate", name ? "text-slate-900" : "text-slate-600")} data-testid="selected-tenant">
          {name ?? "Select a tenant"}
        </span>
        <kbd className="hidden rounded border border-slate-300 px-1 font-sans text-[11px] text-slate-600 sm:inline">{shortcut}</kbd>
        <ChevronDownIcon className="size-4 shrink-0 text-slate-500" />
      </button>
    </div>
  );
}
