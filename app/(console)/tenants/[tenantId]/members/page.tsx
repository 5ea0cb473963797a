import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { prefetchForPage } from "@/server/app/pages";
import { MembersView } from "@/components/members/members-view";
import { membersInput, pendingInvitationsInput } from "@/components/members/queries";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  // The first members come with the page, and (admins only: a viewer's prefetch fails and is left
  // out, as the client would not ask) the pending invitations.
  const state = await prefetchForPage((trpc) => [
    trpc.account.me.queryOptions({}),
    trpc.members.list.queryOptions(membersInput(tenantId)),
    trpc.invitations.list.queryOptions(pendingInvitationsInput(tenantId)),
  ]);
  return (
    <HydrationBoundary state={state}>
      <MembersView tenantId={tenantId} />
    </HydrationBoundary>
  );
}
