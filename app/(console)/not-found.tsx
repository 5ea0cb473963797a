import type { Metadata } from "next";
import { NotFoundView } from "@/components/console/not-found-view";

export const metadata: Metadata = { title: "Page not found" };

/** notFound() below the console layout (e.g. a tenant the user cannot see): 404 inside the shell. */
export default function ConsoleNotFound() {
  return <NotFoundView />;
}
