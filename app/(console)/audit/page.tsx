import { Suspense } from "react";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireUser } from "@/server/account/session";
import { AuditSearchView } from "@/components/audit/search-view";
import { LoadingSearch } from "@/components/audit/search-table";

export const metadata: Metadata = { title: "Audit search" };

/** Operators and support staff search every tenant's audit log; anyone else gets the console's 404. */
export default async function AuditSearchPage() {
  if (!(await requireUser()).platformRole) notFound();
  return (
    <Suspense fallback={<LoadingSearch />}>
      <AuditSearchView />
    </Suspense>
  );
}
