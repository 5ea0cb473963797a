"use client";

import { useState, type ReactNode } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import type { AppRouter } from "@/server/app/router";
import { ToastProvider } from "../ui/toast";
import { statusOf, TRPCProvider } from "../trpc";

/**
 * The guided setup's client state: the same procedures as the console, at /api/setup/trpc, where
 * the setup cookie is the only credential. No sign-in-again: the IT admin has no account; a gone
 * session (expired, link revoked) reloads into the page that says so.
 */
export function SetupProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { staleTime: 10_000, retry: (failures, error) => !(statusOf(error) >= 400 && statusOf(error) < 500) && failures < 2 },
        },
      }),
  );
  const [trpcClient] = useState(() => createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: "/api/setup/trpc" })] }));
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <ToastProvider>{children}</ToastProvider>
      </TRPCProvider>
    </QueryClientProvider>
  );
}
