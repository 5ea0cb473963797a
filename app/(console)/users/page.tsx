import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireUser } from "@/server/account/session";
import { UsersView } from "@/components/users/users-view";

export const metadata: Metadata = { title: "Platform users" };

/** Operators only: anyone else gets the console's 404 (the page is not in their navigation). */
export default async function UsersPage() {
  if ((await requireUser()).platformRole !== "operator") notFound();
  return <UsersView />;
}
