import type { Metadata } from "next";
import { TestResultView } from "@/components/sso/test-result-view";

export const metadata: Metadata = { title: "Test sign-in" };

export default async function TestSignInResultPage({
  params,
}: {
  params: Promise<{ tenantId: string; providerId: string; requestId: string }>;
}) {
  const { tenantId, providerId, requestId } = await params;
  return <TestResultView tenantId={tenantId} providerId={providerId} requestId={requestId} />;
}
