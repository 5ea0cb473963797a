"use client";

import { useState, type ReactNode } from "react";
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import type { AppRouter } from "@/server/trpc/router";
import { ToastProvider } from "./ui/toast";
import { statusOf, TRPCProvider } from "./trpc";

let reloading = false;

/**
 * A session that expired mid-use: reload, and the console layout sends us to sign in and back
 * here (a full load also drops every cached query of the old session). Only when next-auth agrees
 * the session is gone: otherwise reloading would loop, so the 401 is shown as an error instead.
 */
async function onApiError(error: unknown) {
  if (statusOf(error) !== 401 || reloading) return;
  const session = (await fetch("/api/auth/session")
    .then((response) => response.json())
    .catch(() => null)) as { user?: unknown } | null;
  if (session && !session.user && !reloading) {
    reloading = true;
    window.location.reload();
  }
}

function makeQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: onApiError }),
    mutationCache: new MutationCache({ onError: onApiError }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // A 4xx answer will not change by asking again; network trouble and 5xx might.
        retry: (failures, error) => {
          const status = statusOf(error);
          return !(status >= 400 && status < 500) && failures < 2;
        },
      },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() => createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: "/api/trpc" })] }));
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <ToastProvider>{children}</ToastProvider>
      </TRPCProvider>
    </QueryClientProvider>
  );
}
