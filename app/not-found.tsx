import type { Metadata } from "next";
import Link from "next/link";
import { currentUser } from "@/server/account/session";
import { Brand } from "@/components/brand";
import { Providers } from "@/components/providers";
import { ConsoleShell } from "@/components/console/shell";
import { NotFoundView } from "@/components/console/not-found-view";
import { requestTheme } from "./theme";

export const metadata: Metadata = { title: "Page not found" };

/** Unknown paths (HTTP 404): inside the console shell when signed in, else under the brand with a way to sign in. */
export default async function NotFound() {
  const user = await currentUser();
  if (user) {
    return (
      <Providers user={user}>
        <ConsoleShell user={user} theme={await requestTheme()}>
          <NotFoundView />
        </ConsoleShell>
      </Providers>
    );
  }
  return (
    <main className="px-4 py-10">
      <Link href="/" className="mx-auto block w-fit rounded-md focus-visible:outline-2 focus-visible:outline-indigo-600">
        <Brand />
      </Link>
      <NotFoundView signedIn={false} />
    </main>
  );
}
