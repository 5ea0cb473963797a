/**
 * Directory users and groups as the read API and the events show them (one shape for both: an
 * event's payload is the resource as `GET …/users/{id}` answers it at that moment).
 */
import type { DirectoryGroup as DirectoryGroupRow, DirectoryUser as DirectoryUserRow } from "../db/generated/client.ts";
import type { DirectoryGroup, DirectoryRole, DirectoryUser, UnlinkedReason } from "./schemas.ts";

/** The SCIM enterprise User extension's schema URN: its attributes are a user's custom attributes. */
export const ENTERPRISE_USER = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

function emailsOf(resource: Json): DirectoryUser["emails"] {
  const emails = Array.isArray(resource.emails) ? resource.emails : [];
  return emails
    .filter(isObject)
    .flatMap((email) =>
      typeof email.value === "string"
        ? [{ value: email.value, type: typeof email.type === "string" ? email.type : null, primary: email.primary === true }]
        : [],
    );
}

/**
 * `members`: the linked accounts that are members of the tenant (membersAmong, ./read.ts). A
 * linked account shows its `user_id` only then: the directory's readers learn nothing of accounts
 * that are not the tenant's.
 */
export function presentDirectoryUser(
  row: DirectoryUserRow,
  groups: { id: string; name: string }[],
  members: ReadonlySet<string> = new Set(),
): DirectoryUser {
  const resource = isObject(row.resource) ? row.resource : {};
  const enterprise = resource[ENTERPRISE_USER];
  return {
    id: row.id,
    directory_id: row.directoryId,
    idp_id: row.externalId,
    user_name: row.userName,
    emails: emailsOf(resource),
    first_name: row.givenName,
    last_name: row.familyName,
    state: row.active ? "active" : "inactive",
    groups,
    role: row.role as DirectoryRole | null,
    user_id: row.userId !== null && members.has(row.userId) ? row.userId : null,
    linked: row.userId !== null,
    unlinked_reason: row.userId !== null ? null : ((row.unlinkedReason as UnlinkedReason | null) ?? "no_account"),
    custom_attributes: isObject(enterprise) ? enterprise : {},
    raw_attributes: resource,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentDirectoryGroup(row: DirectoryGroupRow, userCount: number): DirectoryGroup {
  return {
    id: row.id,
    directory_id: row.directoryId,
    idp_id: row.externalId,
    name: row.displayName,
    user_count: userCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
