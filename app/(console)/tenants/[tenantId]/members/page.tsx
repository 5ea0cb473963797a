import type { Metadata } from "next";
import { MembersView } from "@/components/members/members-view";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  return <MembersView tenantId={tenantId} />;
}
