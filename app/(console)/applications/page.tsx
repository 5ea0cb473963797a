import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireUser } from "@/server/account/session";
import { ApplicationsView } from "@/components/sso-broker/applications-view";

export const metadata: Metadata = { title: "Applications" };

/** Operators only: anyone else gets the console's 404 (the page is not in their navigation). */
export default async function ApplicationsPage() {
  if ((await requireUser()).platformRole !== "operator") notFound();
  return <ApplicationsView />;
}
