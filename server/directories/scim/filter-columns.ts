/**
 * Where a SCIM filter reads an attribute from when it is not in the `resource` jsonb: the row's
 * own columns (id, externalId, userName, displayName, active, meta) and the memberships table
 * (a Group's members, a User's groups). What filter-sql.ts compiles comparisons against.
 */
import { invalidFilter } from "./errors.ts";
import { pathText, type AttrPath } from "./filter.ts";
import type { ResourceKind, ScimAttribute } from "./schema.ts";

/** Something a comparison reads: a text/boolean/timestamptz SQL expression or a jsonb one. */
export type Target =
  /** `uuid`: the uuid column behind a text id, compared directly when the value is an id (its index). */
  | { kind: "text"; sql: string; caseExact: boolean; lowered?: boolean; uuid?: string }
  | { kind: "bool"; sql: string }
  | { kind: "time"; sql: string }
  | { kind: "json"; sql: string; attribute: ScimAttribute | null };

/** What a value filter or a multi-valued attribute ranges over. */
export interface Scope {
  /** The condition, true for some element. */
  exists(condition: string): string;
  /** The element's sub-attribute (null: the element itself, for `pr`). */
  element(sub: string | null): Target;
}

export type Resolved = { single: Target } | { scope: Scope; sub: string | null };

/** The attributes with a column of their own, and the memberships. */
export function mappedColumn(kind: ResourceKind, attribute: ScimAttribute, path: AttrPath): Resolved | null {
  const text = (sql: string, caseExact: boolean, lowered = false): Resolved => ({ single: { kind: "text", sql, caseExact, lowered } });
  const user = kind === "User";
  switch (attribute.name) {
    case "id":
      return { single: { kind: "text", sql: "r.id::text", caseExact: true, uuid: "r.id" } };
    case "externalId":
      return text("r.external_id", true);
    case "userName":
      return user ? text("r.user_name_lower", false, true) : null;
    case "displayName":
      return user ? null : text("r.display_name_lower", false, true);
    case "active":
      return user ? { single: { kind: "bool", sql: "r.active" } } : null;
    case "meta":
      switch (path.sub?.toLowerCase()) {
        case "created":
          return { single: { kind: "time", sql: "r.created_at" } };
        case "lastmodified":
          return { single: { kind: "time", sql: "r.updated_at" } };
        case "resourcetype":
          return text(`'${kind}'`, true);
        case "version":
          return text(`('W/"' || r.version || '"')`, true);
        default:
          throw invalidFilter(`'${pathText(path)}' is not filterable`);
      }
    case "members":
      return user ? null : { scope: membershipScope("members"), sub: path.sub };
    case "groups":
      return user ? { scope: membershipScope("groups"), sub: path.sub } : null;
    default:
      return null;
  }
}

/** A Group's members or a User's groups: rows of directory_group_members, not jsonb. */
export function membershipScope(name: "members" | "groups"): Scope {
  const members = name === "members";
  return {
    exists: (condition) =>
      members
        ? `EXISTS (SELECT 1 FROM directory_group_members m WHERE m.group_id = r.id AND ${condition})`
        : `EXISTS (SELECT 1 FROM directory_group_members m JOIN directory_groups g ON g.id = m.group_id WHERE m.user_id = r.id AND ${condition})`,
    element: (sub) => {
      switch (sub?.toLowerCase() ?? "value") {
        case "value":
          return members
            ? { kind: "text", sql: "m.user_id::text", caseExact: true, uuid: "m.user_id" }
            : { kind: "text", sql: "m.group_id::text", caseExact: true, uuid: "m.group_id" };
        case "type":
          return { kind: "text", sql: members ? "'User'" : "'direct'", caseExact: false };
        case "display":
          if (!members) return { kind: "text", sql: "g.display_name_lower", caseExact: false, lowered: true };
      }
      throw invalidFilter(`'${name}.${sub}' is not filterable`);
    },
  };
}
