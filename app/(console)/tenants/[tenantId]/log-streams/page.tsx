import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { prefetchForPage } from "@/server/app/pages";
import { StreamsView } from "@/components/log-streams/streams-view";
import { streamsInput } from "@/components/log-streams/queries";

export const metadata: Metadata = { title: "Log streams" };

export default async function TenantLogStreamsPage({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  // The first page comes with the page; the client takes over for paging and refreshing the lag.
  const state = await prefetchForPage((trpc) => [
    trpc.account.me.queryOptions({}),
    trpc.logStreams.list.queryOptions(streamsInput(tenantId)),
  ]);
  return (
    <HydrationBoundary state={state}>
      <StreamsView tenantId={tenantId} />
    </HydrationBoundary>
  );
}
