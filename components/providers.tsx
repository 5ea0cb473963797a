"use client";

import { useState, type ReactNode } from "react";
import { QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import type { AppRouter } from "@/server/app/router";
import { ToastProvider } from "./ui/toast";
import { statusOf, TRPCProvider } from "./trpc";
import { reauthLink, sessionGone, signInAgain } from "./auth/reauth";
import { SignInAgainDialog } from "./auth/sign-in-again-dialog";

/**
 * A query that found the session gone (a refetch after it expired): ask for a sign-in over the
 * page rather than reloading, which would throw away whatever is being edited. Mutations are held
 * and retried by `reauthLink` instead, so they never get here with a 401 to act on.
 */
async function onQueryError(error: unknown, queryClient: QueryClient) {
  if (statusOf(error) !== 401 || !(await sessionGone())) return;
  const outcome = await signInAgain();
  if (outcome === "same-user") await queryClient.invalidateQueries();
  // Someone else signed in: the page shows the old user's data; start afresh.
  else if (outcome === "other-user") window.location.reload();
}

function makeQueryClient() {
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      // A query marked `advisory` (a hint while typing) fails quietly: what the person does next asks.
      onError: (error, query) => void (query.meta?.advisory ? undefined : onQueryError(error, queryClient)),
    }),
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
  return queryClient;
}

/** The console's client state; `user` is who is signed in, to sign in again as when the session expires. */
export function Providers({ children, user }: { children: ReactNode; user: { userId: string; email: string } }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() => createTRPCClient<AppRouter>({ links: [reauthLink, httpBatchLink({ url: "/api/trpc" })] }));
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <ToastProvider>
          {children}
          <SignInAgainDialog user={user} />
        </ToastProvider>
      </TRPCProvider>
    </QueryClientProvider>
  );
}
