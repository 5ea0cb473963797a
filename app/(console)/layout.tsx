import type { ReactNode } from "react";
import { requireUser } from "@/server/account/session";
import { Providers } from "@/components/providers";
import { ConsoleShell } from "@/components/console/shell";
import { requestTheme } from "../theme";

export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const theme = await requestTheme();
  return (
    <Providers user={user}>
      <ConsoleShell user={user} theme={theme}>
        {children}
      </ConsoleShell>
    </Providers>
  );
}
