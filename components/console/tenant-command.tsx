"use client";

import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { usePathname, useRouter } from "next/navigation";
import { Command } from "cmdk";
import { shortTenantId } from "../tenants/tenant-label";
import { useTenantSearch } from "../tenants/use-tenant-search";
import { Dialog } from "../ui/dialog";
import { Spinner } from "../ui/spinner";
import { BuildingIcon, SearchIcon } from "../icons";
import { usePaletteSelection } from "./palette-selection";
import { useSelectedTenant } from "./selected-tenant";
import { consoleUrl } from "./urls";

const OpenContext = createContext<() => void>(() => undefined);

/** Opens the tenant switcher (the same as ⌘K / Ctrl+K). */
export function useOpenTenantCommand() {
  return useContext(OpenContext);
}

/** The same page of another tenant when on a tenant's page (members stay members), else its overview. */
export function sameSectionOf(pathname: string, current: string | null, next: string): string {
  const base = current ? consoleUrl.tenant(current) : null;
  if (base && pathname.startsWith(`${base}/`)) return consoleUrl.tenantSection(next, pathname.slice(base.length + 1).split("/")[0]!);
  return consoleUrl.tenant(next);
}

function TenantCommandDialog({ onClose }: { onClose: () => void }) {
  const router = useRouter();
  const pathname = usePathname();
  const selected = useSelectedTenant();
  const [term, setTerm] = useState("");
  const tenants = useTenantSearch(term);
  const results = tenants.data?.results ?? [];
  const more = (tenants.data?.count ?? 0) - results.length;
  const { value, setValue, onKeyDown } = usePaletteSelection(results, tenants.settled && !tenants.isError, choose);

  function choose(id: string) {
    onClose();
    router.push(sameSectionOf(pathname, selected.id, id));
  }

  return (
    <Dialog
      title="Switch tenant"
      description="Type part of a name, or paste a tenant ID."
      onClose={onClose}
      size="md"
      className="sm:mt-[12vh] sm:mb-auto"
    >
      <Command
        shouldFilter={false}
        loop
        label="Search tenants"
        value={value}
        onValueChange={setValue}
        onKeyDown={onKeyDown}
        className="space-y-3"
      >
        <div className="relative">
          <SearchIcon className="pointer-events-none absolute top-2.5 left-3 size-4 text-slate-500" />
          <Command.Input
            value={term}
            onValueChange={setTerm}
            placeholder="Search tenants…"
            data-autofocus
            className="block h-10 w-full rounded-md border-0 bg-white pr-9 pl-9 text-sm text-slate-900 ring-1 ring-slate-300 ring-inset placeholder:text-slate-500 focus:ring-2 focus:ring-indigo-600 focus:outline-none"
          />
          {tenants.isFetching ? <Spinner className="absolute top-3 right-3 size-4 text-slate-500" /> : null}
        </div>
        <Command.List label="Tenants" className="max-h-80 overflow-y-auto">
          {tenants.isError ? (
            <p role="alert" className="px-2 py-6 text-center text-sm text-red-700">
              Tenants could not be searched. Try again in a moment.
            </p>
          ) : null}
          {tenants.isSuccess && results.length === 0 ? (
            <Command.Empty className="px-2 py-6 text-center text-sm text-slate-600">
              {tenants.search ? `No tenant matches “${tenants.search}”.` : "No tenants yet."}
            </Command.Empty>
          ) : null}
          {results.map((tenant) => (
            <Command.Item
              key={tenant.id}
              value={tenant.id}
              onSelect={() => choose(tenant.id)}
              className="flex cursor-pointer items-center gap-2.5 rounded-md px-2.5 py-2 text-sm text-slate-800 data-[selected=true]:bg-indigo-50 data-[selected=true]:text-indigo-800"
            >
              <BuildingIcon className="size-4 shrink-0 text-slate-500" />
              <span className="min-w-0 flex-1 truncate">{tenant.name}</span>
              <span className="shrink-0 font-mono text-xs text-slate-600">{shortTenantId(tenant.id)}</span>
              {tenant.id === selected.id ? <span className="text-xs text-slate-600">current</span> : null}
            </Command.Item>
          ))}
        </Command.List>
        {more > 0 ? (
          <p className="text-xs text-slate-600">
            {more.toLocaleString("en")} more {tenants.search ? "match" : "tenants"}: keep typing to narrow down.
          </p>
        ) : null}
        <p className="hidden text-xs text-slate-600 sm:block">
          <kbd className="font-sans">↑</kbd> <kbd className="font-sans">↓</kbd> to move, <kbd className="font-sans">Enter</kbd> to open,{" "}
          <kbd className="font-sans">Esc</kbd> to close.
        </p>
      </Command>
    </Dialog>
  );
}

/** Holds the tenant switcher: ⌘K / Ctrl+K anywhere in the console opens it. */
export function TenantCommandProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const show = useCallback(() => setOpen(true), []);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.key.toLowerCase() === "k" && (event.metaKey || event.ctrlKey) && !event.altKey && !event.shiftKey) {
        event.preventDefault();
        setOpen((was) => !was);
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const value = useMemo(() => show, [show]);
  return (
    <OpenContext.Provider value={value}>
      {children}
      {open ? <TenantCommandDialog onClose={() => setOpen(false)} /> : null}
    </OpenContext.Provider>
  );
}
