/**
 * What one SCIM request may carry, in one place. docs/directory-sync.md and discovery
 * (ServiceProviderConfig's filter.maxResults, the ResourceTypes' and Schemas' descriptions, the
 * OpenAPI document) quote these. Past a cap on operations or values: 400 `tooMany` naming it,
 * before the work it would cost. With them, what a request makes the server do on its event loop
 * is linear in what it sends and small: a PATCH matches values by Set and Map, not each against each.
 */
import { tooMany } from "./errors.ts";
import type { ResourceKind } from "./schema.ts";

/** Bodies past this are refused with 413 (the HTTP adapter stops reading at it). */
export const MAX_SCIM_BODY_BYTES = 1024 * 1024;
/** The largest page a list answers (`count` is capped to it): ServiceProviderConfig's filter.maxResults. */
export const MAX_RESULTS = 1000;
export const DEFAULT_COUNT = 100;
/** Operations in one PATCH request. */
export const MAX_PATCH_OPERATIONS = 100;
/** Values one PATCH operation carries: the elements of the lists in its `value` (members to add or remove…). */
export const MAX_OPERATION_VALUES = 1000;
/** Members a Group's POST or PUT names (a group may grow past it, a PATCH at a time). */
export const MAX_MEMBERS_PER_REQUEST = 1000;
/** Values of any other multi-valued attribute (a User's emails, phoneNumbers, addresses…; any list in a resource). */
export const MAX_ATTRIBUTE_VALUES = 100;

/** How many values `value` carries (elements of its lists, at any depth), counting no further than past `limit`. */
export function countValues(value: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length && count <= limit) {
    const item = stack.pop();
    if (Array.isArray(item)) {
      count += item.length;
      for (const element of item) if (typeof element === "object" && element !== null) stack.push(element);
    } else if (typeof item === "object" && item !== null) {
      for (const child of Object.values(item)) if (typeof child === "object" && child !== null) stack.push(child);
    }
  }
  return count;
}

/**
 * Every list in a resource within its cap: a Group's `members` within `membersCap` (a request's
 * MAX_MEMBERS_PER_REQUEST; none for a PATCH's result, whose members the group already had), any
 * other list, at any depth, within MAX_ATTRIBUTE_VALUES. 400 tooMany naming the attribute.
 */
export function assertListSizes(kind: ResourceKind, resource: unknown, membersCap = MAX_MEMBERS_PER_REQUEST): void {
  const stack: { value: unknown; path: string }[] = [{ value: resource, path: "" }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (typeof value !== "object" || value === null) continue;
    const at = (key: string) => (path ? `${path}.${key}` : key);
    if (!Array.isArray(value)) {
      for (const [key, child] of Object.entries(value)) stack.push({ value: child, path: at(key) });
      continue;
    }
    const members = kind === "Group" && MEMBERS_PATH.test(path);
    const cap = members ? membersCap : MAX_ATTRIBUTE_VALUES;
    if (value.length > cap) throw tooMany(capDetail(path, value.length, cap, members));
    if (!members) value.forEach((child, index) => stack.push({ value: child, path: `${path}[${index}]` }));
  }
}

/** A Group's `members`, at the top or under the core schema's URN (RFC 7644 §3.10). */
const MEMBERS_PATH = /^(urn:ietf:params:scim:schemas:core:2\.0:group\.)?members$/i;

export const capDetail = (path: string, count: number, cap: number, members = false) =>
  members
    ? `members names ${count} members: at most ${cap} in one request (add more with PATCH, ${MAX_OPERATION_VALUES} per operation)`
    : `${path || "the resource"} has ${count} values: at most ${cap} per multi-valued attribute`;
