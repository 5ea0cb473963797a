/**
 * The values of a multi-valued attribute that a PATCH adds or removes, matched in time linear in
 * the values on both sides: a Group's members by normalised id in an ordered map (MemberSet), other
 * values by a canonical JSON key. RFC 7644 §3.5.2.1: adding a value already present changes nothing.
 */
import { findAttribute, isObject, type ScimAttribute } from "./schema.ts";

type Json = Record<string, unknown>;

/**
 * A member's identity: its id in any case (Entra ID removes `[{"value": "<id>"}]` from members that
 * have a display), else the whole value as canonical JSON after a NUL, which no id has (a body
 * with one is refused, respond.ts).
 */
export function memberKey(item: unknown): string {
  return isObject(item) && typeof item.value === "string" ? item.value.toLowerCase() : `\0${stableJson(item)}`;
}

/** A Group's members while a PATCH runs: one per key, in the order they joined; add, find and remove in O(1). */
export class MemberSet {
  private readonly byKey = new Map<string, unknown>();

  constructor(items: Iterable<unknown> = []) {
    for (const item of items) this.add(item);
  }

  /** False when a member with that key is there already (then it is left as it is). */
  add(item: unknown): boolean {
    const key = memberKey(item);
    if (this.byKey.has(key)) return false;
    this.byKey.set(key, item);
    return true;
  }

  delete(item: unknown): void {
    this.byKey.delete(memberKey(item));
  }

  /** The member whose id is `id` (any case). */
  byId(id: string): unknown {
    return this.byKey.get(id.toLowerCase());
  }

  get size(): number {
    return this.byKey.size;
  }

  values(): unknown[] {
    return [...this.byKey.values()];
  }
}

/** The values of `items` not already in `list` (deep equality, keys in any order); duplicates within `items` are kept. */
export function notIn(list: unknown[], items: unknown[]): unknown[] {
  const present = new Set(list.map(stableJson));
  return items.filter((item) => !present.has(stableJson(item)));
}

/**
 * Whether a value is one that a remove with a value list names. A removal value that is an object
 * of the attribute's own sub-attributes names the ones it matches on (`{"value": "a@b", "type":
 * "work"}` removes that work email, whatever its `primary`); any other removal value must equal
 * the value whole. The object ones are grouped by the sub-attributes they name (at most 2^8 sets:
 * no attribute has more than 8), so each value is looked up once per set: linear in both lists.
 */
export function removalMatcher(attribute: ScimAttribute | null, gone: unknown[]): (item: unknown) => boolean {
  const whole = new Set<string>();
  const bySubAttributes = new Map<string, { keys: string[]; projections: Set<string> }>();
  for (const value of gone) {
    const keys = isObject(value) ? Object.keys(value).sort() : [];
    if (!isObject(value) || !attribute || !keys.every((key) => findAttribute(attribute.subAttributes, key)?.name === key)) {
      whole.add(stableJson(value));
      continue;
    }
    const signature = keys.join(",");
    let group = bySubAttributes.get(signature);
    if (!group) bySubAttributes.set(signature, (group = { keys, projections: new Set() }));
    group.projections.add(projection(value, keys)!);
  }
  const groups = [...bySubAttributes.values()];
  return (item) => {
    if (whole.size > 0 && whole.has(stableJson(item))) return true;
    if (!isObject(item)) return false;
    return groups.some(({ keys, projections }) => {
      const named = projection(item, keys);
      return named !== null && projections.has(named);
    });
  };
}

/** The values of `keys` in `object` as one string; null when one of them is absent. */
function projection(object: Json, keys: string[]): string | null {
  const parts: string[] = [];
  for (const key of keys) {
    if (!Object.hasOwn(object, key)) return null;
    parts.push(stableJson(object[key]));
  }
  // JSON text has no raw newline: the parts cannot run into each other.
  return parts.join("\n");
}

/** JSON with object keys sorted, so equal values have equal text. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson(value[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "undefined";
}
