/**
 * The Directory Sync pages' first queries, shared by the client components and the pages that run
 * them on the server (not a client module, so server components get the values).
 */
import type { DirectoryUserState } from "@/server/directories/schemas";

export const DIRECTORIES_PAGE_SIZE = 20;
export const DIRECTORY_USERS_PAGE_SIZE = 25;
export const DIRECTORY_GROUPS_PAGE_SIZE = 25;
export const SCIM_REQUESTS_PAGE_SIZE = 25;

/** The sections of a directory's page, as `?tab=` (the overview has none). */
export const DIRECTORY_TABS = ["overview", "users", "groups", "activity"] as const;
export type DirectoryTab = (typeof DIRECTORY_TABS)[number];

export function directoryTabParam(value: string | string[] | null | undefined): DirectoryTab {
  return typeof value === "string" && (DIRECTORY_TABS as readonly string[]).includes(value) ? (value as DirectoryTab) : "overview";
}

/** The users list's filters, kept in the page's query (`?tab=users&search=…&state=…&linked=…&group=…`). */
export interface UserFilters {
  search: string;
  state: DirectoryUserState | "";
  /** `true`: linked to a console account; `false`: not (outside the verified domains, say). */
  linked: "true" | "false" | "";
  group: string;
}

export function userFiltersOf(query: { get: (name: string) => string | null }): UserFilters {
  const state = query.get("state");
  const linked = query.get("linked");
  return {
    search: query.get("search") ?? "",
    state: state === "active" || state === "inactive" ? state : "",
    linked: linked === "true" || linked === "false" ? linked : "",
    group: query.get("group") ?? "",
  };
}

export function directoriesInput(tenantId: string, cursor?: string) {
  return { tenant_id: tenantId, page_size: DIRECTORIES_PAGE_SIZE, ...(cursor ? { cursor } : {}) };
}

export function directoryUsersInput(tenantId: string, directoryId: string, filters: UserFilters, cursor?: string) {
  return {
    tenant_id: tenantId,
    directory_id: directoryId,
    page_size: DIRECTORY_USERS_PAGE_SIZE,
    ...(filters.search ? { search: filters.search } : {}),
    ...(filters.state ? { state: filters.state } : {}),
    ...(filters.linked ? { linked: filters.linked } : {}),
    ...(filters.group ? { group_id: filters.group } : {}),
    ...(cursor ? { cursor } : {}),
  };
}

export function directoryGroupsInput(tenantId: string, directoryId: string, search: string, cursor?: string) {
  return {
    tenant_id: tenantId,
    directory_id: directoryId,
    page_size: DIRECTORY_GROUPS_PAGE_SIZE,
    ...(search ? { search } : {}),
    ...(cursor ? { cursor } : {}),
  };
}

export function scimRequestsInput(tenantId: string, directoryId: string, failed: boolean, cursor?: string) {
  return {
    tenant_id: tenantId,
    directory_id: directoryId,
    page_size: SCIM_REQUESTS_PAGE_SIZE,
    ...(failed ? { failed: "true" as const } : {}),
    ...(cursor ? { cursor } : {}),
  };
}
