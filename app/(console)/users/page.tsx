import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireUser } from "@/server/account/session";
import { UsersView } from "@/components/users/users-view";

export const metadata: Metadata = { title: "Platform users" };

/** Operators manage platform users, support staff see them (read-only); anyone else gets the console's 404. */
export default async function UsersPage() {
  if (!(await requireUser()).platformRole) notFound();
  return <UsersView />;
}
