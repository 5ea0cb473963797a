"use client";

import { useParams, useSearchParams } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The tenant the person works in, from the URL: the page's own (/tenants/{id}/…) or, on account
 * pages, `?tenant={id}`. `tenant` is set only once the server confirmed the user can see it, so
 * nothing links into a tenant out of reach.
 */
export function useSelectedTenant() {
  const trpc = useTRPC();
  const params = useParams<{ tenantId?: string }>();
  const search = useSearchParams();
  const id = params.tenantId ?? search.get("tenant") ?? null;
  const query = useQuery({
    ...trpc.tenants.get.queryOptions({ tenant_id: id ?? "" }),
    enabled: Boolean(id && UUID.test(id)),
    retry: false,
  });
  return { id, tenant: query.isSuccess ? query.data : null, pending: Boolean(id) && query.isPending && query.fetchStatus !== "idle" };
}
