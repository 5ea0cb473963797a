import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireUser } from "@/server/account/session";
import { ExpiringCertificatesView } from "@/components/sso/expiring-certificates-view";

export const metadata: Metadata = { title: "Expiring certificates" };

/** Operators and support: anyone else gets the console's 404 (the page is not in their navigation). */
export default async function ExpiringCertificatesPage() {
  const { platformRole } = await requireUser();
  if (platformRole !== "operator" && platformRole !== "support") notFound();
  return <ExpiringCertificatesView />;
}
