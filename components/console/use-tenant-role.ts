"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc";

export type TenantRole = "admin" | "viewer";

export interface TenantRoleState {
  /** The caller's effective role in the tenant, or null when it has none (or while loading). */
  role: TenantRole | null;
  loading: boolean;
  /** Whether write controls should be offered (the server decides in the end). */
  canWrite: boolean;
  /** How the access is named to the user: support staff are "Support", not "Viewer". */
  label: string | null;
}

/**
 * The signed-in user's role in a tenant, from `account.me`: platform operators act as admin and
 * support staff as viewer everywhere; anyone else has the role of their membership, if any.
 */
export function useTenantRole(tenantId: string): TenantRoleState {
  const trpc = useTRPC();
  const me = useQuery(trpc.account.me.queryOptions({}));
  if (!me.data) return { role: null, loading: me.isPending, canWrite: false, label: null };
  const platform = me.data.user.platform_role;
  const membership = me.data.memberships.find((m) => m.tenant_id === tenantId)?.role ?? null;
  const role: TenantRole | null =
    platform === "operator" || membership === "admin" ? "admin" : platform === "support" || membership === "viewer" ? "viewer" : null;
  const label =
    platform === "operator"
      ? "Operator"
      : role === "admin"
        ? "Admin"
        : platform === "support"
          ? "Support"
          : role === "viewer"
            ? "Viewer"
            : null;
  return { role, loading: false, canWrite: role === "admin", label };
}
