/**
 * The console role a directory gives a user: the first of the directory's `role_mappings` that one
 * of the user's groups matches (by display name, case-insensitively, or by the IdP's id of the
 * group), else the directory's `default_role` (null: no console membership). Pure.
 */
import type { TenantRole } from "../auth/principal.ts";
import { DIRECTORY_ROLES, type RoleMapping } from "./schemas.ts";

export interface GroupOfUser {
  displayName: string;
  externalId: string | null;
}

/** The stored mappings, keeping only well-formed entries (the column is JSON written by the API). */
export function roleMappingsOf(value: unknown): RoleMapping[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (m): m is RoleMapping =>
      typeof m === "object" &&
      m !== null &&
      typeof (m as RoleMapping).group === "string" &&
      (DIRECTORY_ROLES as readonly string[]).includes((m as RoleMapping).role),
  );
}

export function asDirectoryRole(value: string | null): TenantRole | null {
  return value !== null && (DIRECTORY_ROLES as readonly string[]).includes(value) ? (value as TenantRole) : null;
}

export function mappedRole(
  mappings: readonly RoleMapping[],
  defaultRole: TenantRole | null,
  groups: readonly GroupOfUser[],
): TenantRole | null {
  for (const mapping of mappings) {
    const wanted = mapping.group.trim().toLowerCase();
    if (groups.some((g) => g.displayName.toLowerCase() === wanted || (g.externalId !== null && g.externalId === mapping.group))) {
      return mapping.role;
    }
  }
  return defaultRole;
}

/** The broader of two roles: a person in two directories of a tenant keeps the higher one. */
export function broaderRole(a: TenantRole | null, b: TenantRole | null): TenantRole | null {
  if (a === "admin" || b === "admin") return "admin";
  return a ?? b;
}
