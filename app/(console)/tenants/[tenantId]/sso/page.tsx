import type { Metadata } from "next";
import { SsoView } from "@/components/sso/sso-view";

export const metadata: Metadata = { title: "SSO" };

export default async function TenantSsoPage({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  return <SsoView tenantId={tenantId} />;
}
