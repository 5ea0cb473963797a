import type { ReactNode } from "react";
import { requireUser } from "@/server/auth/session";
import { Providers } from "@/components/providers";
import { ConsoleShell } from "@/components/console/shell";

export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  return (
    <Providers user={user}>
      <ConsoleShell user={user}>{children}</ConsoleShell>
    </Providers>
  );
}
