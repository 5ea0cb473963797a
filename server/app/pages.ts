/**
 * First rows with the page: a console page (server component) runs the console's own queries
 * through the same procedures, session and checks as /api/trpc, and hands what they answered to
 * the client's query cache (`<HydrationBoundary state={…}>`), which takes over from there. A query
 * that fails is left out: the client asks again and shows the error as it would have.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { TRPCError } from "@trpc/server";
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

const ABSENT = new Set<TRPCError["code"]>(["NOT_FOUND", "BAD_REQUEST"]);

/**
 * `subject`: the query of what the URL names (a webhook, say). When it answers "not found" (or
 * the id in the URL cannot be one), the page is a real 404 (`notFound()`), as an unknown tenant
 * is, rather than a page that says so.
 */
export async function prefetchForPage(
  queries: (trpc: TRPCOptionsProxy<AppRouter>) => AnyQuery[],
  { subject }: { subject?: (trpc: TRPCOptionsProxy<AppRouter>) => AnyQuery } = {},
): Promise<DehydratedState> {
  const queryClient = new QueryClient();
  const request = await pageRequest();
  const context = createConsoleContext(request, randomUUID());
  const trpc = createTRPCOptionsProxy<AppRouter>({ router: appRouter, ctx: () => context, queryClient });
  const named = subject?.(trpc);
  await Promise.all([...(named ? [named] : []), ...queries(trpc)].map((query) => queryClient.prefetchQuery(query)));
  const failure = named ? queryClient.getQueryState(named.queryKey)?.error : null;
  if (failure instanceof TRPCError && ABSENT.has(failure.code)) notFound();
  return dehydrate(queryClient);
}
