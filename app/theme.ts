import "server-only";
import { cookies } from "next/headers";
import { parseTheme, THEME_COOKIE, type Theme } from "@/components/theme";

/** The reader's theme from its cookie (components/theme.ts), for <html class> and the switch. */
export async function requestTheme(): Promise<Theme> {
  return parseTheme((await cookies()).get(THEME_COOKIE)?.value);
}
