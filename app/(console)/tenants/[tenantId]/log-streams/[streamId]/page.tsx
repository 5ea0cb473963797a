import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { prefetchForPage } from "@/server/app/pages";
import { StreamDetailsView } from "@/components/log-streams/stream-details-view";
import { batchesInput, streamInput } from "@/components/log-streams/queries";

export const metadata: Metadata = { title: "Log stream" };

export default async function TenantLogStreamPage({ params }: { params: Promise<{ tenantId: string; streamId: string }> }) {
  const { tenantId, streamId } = await params;
  // The stream and its last batches come with the page; an unknown stream is a 404.
  const state = await prefetchForPage(
    (trpc) => [trpc.account.me.queryOptions({}), trpc.logStreams.batches.queryOptions(batchesInput(tenantId, streamId))],
    { subject: (trpc) => trpc.logStreams.get.queryOptions(streamInput(tenantId, streamId)) },
  );
  return (
    <HydrationBoundary state={state}>
      <StreamDetailsView tenantId={tenantId} streamId={streamId} />
    </HydrationBoundary>
  );
}
