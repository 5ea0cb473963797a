"use client";

import { useEffect, useId, useSyncExternalStore } from "react";
import { cx } from "../ui/cx";
import { parseTheme, THEME_COOKIE, THEME_STORAGE_KEY, THEMES, type Theme } from "../theme";

const LABEL: Record<Theme, string> = { system: "System", light: "Light", dark: "Dark" };
const ONE_YEAR = 60 * 60 * 24 * 365;
const CHANGED = "cp-theme-change";

function current(): Theme {
  return THEMES.find((theme) => document.documentElement.classList.contains(theme)) ?? "system";
}

function subscribe(onChange: () => void) {
  window.addEventListener(CHANGED, onChange);
  return () => window.removeEventListener(CHANGED, onChange);
}

function apply(theme: Theme) {
  const root = document.documentElement;
  root.classList.remove(...THEMES);
  root.classList.add(theme);
  document.cookie = `${THEME_COOKIE}=${theme}; path=/; max-age=${ONE_YEAR}; samesite=lax`;
  window.dispatchEvent(new Event(CHANGED));
}

/**
 * System / Light / Dark. The server rendered <html> with the cookie's theme (`initial`); a choice
 * here switches the class at once and is remembered in the cookie and in localStorage.
 */
export function ThemeSwitch({ initial }: { initial: Theme }) {
  const theme = useSyncExternalStore(subscribe, current, () => initial);
  const name = useId();

  // A cleared cookie (the server fell back to system) but a remembered choice: restore it.
  useEffect(() => {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    const hasCookie = document.cookie.split("; ").some((c) => c.startsWith(`${THEME_COOKIE}=`));
    if (stored && !hasCookie) apply(parseTheme(stored));
  }, []);

  function choose(next: Theme) {
    localStorage.setItem(THEME_STORAGE_KEY, next);
    apply(next);
  }

  return (
    <fieldset>
      <legend className="mb-1 text-xs text-slate-600">Theme</legend>
      <div className="inline-flex rounded-md bg-slate-100 p-0.5 ring-1 ring-slate-200 ring-inset">
        {THEMES.map((value) => (
          <label
            key={value}
            className={cx(
              "cursor-pointer rounded px-2.5 py-1 text-xs font-medium has-focus-visible:outline-2 has-focus-visible:outline-indigo-600",
              theme === value ? "bg-white text-slate-900 shadow-xs" : "text-slate-600 hover:text-slate-900",
            )}
          >
            <input type="radio" name={name} value={value} checked={theme === value} onChange={() => choose(value)} className="sr-only" />
            {LABEL[value]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
