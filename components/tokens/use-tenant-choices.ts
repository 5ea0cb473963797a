"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc";

/** How many tenants platform staff can pick from here; beyond that, mint over the API. */
const LIMIT = 100;

export interface TenantChoices {
  /** Tenants a token may be scoped to, by name. */
  options: Array<{ id: string; name: string }>;
  nameOf: (tenantId: string) => string | null;
  /** Operators and support can scope tokens to any tenant, not only their memberships. */
  platformRole: "operator" | "support" | null;
  loading: boolean;
}

/** The tenants the signed-in user can scope an API token to: their memberships, or every tenant for platform staff. */
export function useTenantChoices(): TenantChoices {
  const trpc = useTRPC();
  const me = useQuery(trpc.account.me.queryOptions({}));
  const platformRole = me.data?.user.platform_role ?? null;
  const all = useQuery({ ...trpc.tenants.list.queryOptions({ page_size: LIMIT }), enabled: platformRole !== null });

  const byId = new Map<string, string>();
  for (const m of me.data?.memberships ?? []) byId.set(m.tenant_id, m.tenant_name);
  for (const t of all.data?.results ?? []) byId.set(t.id, t.name);
  const options = [...byId].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));

  return {
    options,
    nameOf: (tenantId) => byId.get(tenantId) ?? null,
    platformRole,
    loading: me.isPending || (platformRole !== null && all.isPending),
  };
}
