/**
 * First rows with the page: a console page (server component) runs the console's own queries
 * through the same procedures, session and checks as /api/trpc, and hands what they answered to
 * the client's query cache (`<HydrationBoundary state={…}>`), which takes over from there. A query
 * that fails is left out: the client asks again and shows the error as it would have.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { headers } from "next/headers";
import { dehydrate, QueryClient, type DehydratedState, type FetchQueryOptions } from "@tanstack/react-query";
import { createTRPCOptionsProxy, type TRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { createConsoleContext } from "../trpc/create-context.ts";
import { appRouter, type AppRouter } from "./router.ts";

/** The page request as the console's tRPC route would see it (cookies, host; path from proxy.ts). */
async function pageRequest(): Promise<Request> {
  const incoming = await headers();
  const url = new URL(incoming.get("x-request-path") ?? "/", `http://${incoming.get("host") ?? "localhost"}`);
  return new Request(url, { headers: incoming });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each query has its own data type
type AnyQuery = FetchQueryOptions<any, any, any, any>;

export async function prefetchForPage(queries: (trpc: TRPCOptionsProxy<AppRouter>) => AnyQuery[]): Promise<DehydratedState> {
  const queryClient = new QueryClient();
  const request = await pageRequest();
  const context = createConsoleContext(request, randomUUID());
  const trpc = createTRPCOptionsProxy<AppRouter>({ router: appRouter, ctx: () => context, queryClient });
  await Promise.all(queries(trpc).map((query) => queryClient.prefetchQuery(query)));
  return dehydrate(queryClient);
}
