/**
 * The console's colour theme: `system` follows the device (prefers-color-scheme), `light` and
 * `dark` override it. Kept in a cookie so the server renders <html class> right on the first
 * paint (no script, no flash; app/layout.tsx), and in localStorage so it survives a cleared cookie.
 */
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

export const THEME_COOKIE = "theme";
export const THEME_STORAGE_KEY = "cp-theme";

export function parseTheme(value: string | null | undefined): Theme {
  return THEMES.find((theme) => theme === value) ?? "system";
}
