import type { Metadata } from "next";
import { PublicPage } from "@/components/auth/public-page";
import { Brand } from "@/components/brand";
import { SetupProviders } from "@/components/setup/setup-providers";
import { SetupFlow } from "@/components/setup/setup-flow";
import { setupPageSession } from "@/server/setup-links/page";

export const metadata: Metadata = { title: "Guided setup", referrer: "no-referrer" };

const REFUSALS: Record<string, string> = {
  expired: "This setup link has expired. Ask the person who sent it for a new one.",
  revoked: "This setup link was revoked. Ask the person who sent it for a new one.",
  unknown: "This setup link is not valid. Check that you copied all of it, or ask for a new one.",
};

/** Where a setup link lands (app/setup/[token]/route.ts): the guided flow, or why there is none. */
export default async function SetupPage({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  const session = await setupPageSession();
  if (!session) {
    const { error } = await searchParams;
    return (
      <PublicPage title="Guided setup">
        <p className="text-sm text-slate-700" data-testid="setup-refused">
          {REFUSALS[error ?? ""] ??
            "Your setup session has ended (sessions last 4 hours). Open the link you were sent again, or ask for a new one."}
        </p>
      </PublicPage>
    );
  }
  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
      <div className="mb-8">
        <Brand />
      </div>
      <SetupProviders>
        <SetupFlow />
      </SetupProviders>
    </main>
  );
}
