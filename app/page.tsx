import { redirect } from "next/navigation";
import { requireUser } from "@/server/account/session";
import { soleTenantId } from "@/server/tenants/pages";
import { consoleUrl } from "@/components/console/urls";

export const dynamic = "force-dynamic";

/** Where signing in lands: a member of exactly one tenant goes straight into it, everyone else to the list. */
export default async function Home() {
  const tenantId = await soleTenantId(await requireUser());
  redirect(tenantId ? consoleUrl.tenant(tenantId) : consoleUrl.tenants());
}
