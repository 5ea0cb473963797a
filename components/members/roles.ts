import type { TenantRole } from "../console/use-tenant-role";

export const ROLE_OPTIONS: Array<{ value: TenantRole; label: string }> = [
  { value: "viewer", label: "Viewer" },
  { value: "admin", label: "Admin" },
];

export const ROLE_LABEL: Record<TenantRole, string> = { admin: "Admin", viewer: "Viewer" };

export const ROLE_HINT: Record<TenantRole, string> = {
  admin: "Admins can change the tenant: members, SSO and more.",
  viewer: "Viewers can look at the tenant but not change it.",
};
