/**
 * One attribute of one object (the resource or an extension's object) that a PATCH operation
 * changes (patch.ts finds it): the whole attribute, a sub-attribute, or the values a filter selects.
 * A Group's members are held by id (MemberSet) once an operation touches them; any other list is
 * kept within MAX_ATTRIBUTE_VALUES as it changes, so no operation works on more than that many.
 */
import { invalidPath, invalidValue, noTarget, tooMany } from "./errors.ts";
import { equalitiesOf, matchesFilter } from "./filter-match.ts";
import type { Filter } from "./filter.ts";
import { capDetail, MAX_ATTRIBUTE_VALUES } from "./limits.ts";
import { MemberSet, notIn, removalMatcher } from "./patch-lists.ts";
import { canonicalValue, findAttribute, isObject, type ScimAttribute } from "./schema.ts";

type Json = Record<string, unknown>;
type Op = "add" | "remove" | "replace";

/** The key of `object` named `name` in any case. */
export const keyOf = (object: Json, name: string) => Object.keys(object).find((key) => key.toLowerCase() === name.toLowerCase());

/** One attribute of one object (the resource or an extension's object) that an operation changes. */
export class Target {
  constructor(
    readonly container: Json,
    readonly key: string,
    readonly attribute: ScimAttribute | null,
    readonly op: Op,
  ) {}

  get list(): unknown[] {
    const current = this.container[this.key];
    if (current instanceof MemberSet) return current.values();
    return Array.isArray(current) ? current : [];
  }

  set list(items: unknown[]) {
    if (items.length === 0) delete this.container[this.key];
    else if (this.members) this.container[this.key] = new MemberSet(items);
    else if (items.length > MAX_ATTRIBUTE_VALUES) throw tooMany(capDetail(this.key, items.length, MAX_ATTRIBUTE_VALUES));
    else this.container[this.key] = items;
  }

  /** A Group's members by id, made from the list the first time an operation needs them so. */
  get memberSet(): MemberSet {
    const current = this.container[this.key];
    if (current instanceof MemberSet) return current;
    const set = new MemberSet(Array.isArray(current) ? current : []);
    this.container[this.key] = set;
    return set;
  }

  /** Empty members are no members (as an empty list is unassigned, RFC 7643 §2.5). */
  settleMembers(set: MemberSet) {
    if (set.size === 0) delete this.container[this.key];
  }

  canonical(value: unknown, single = false): unknown {
    if (!this.attribute) return value;
    // Entra ID sends the manager as its id alone: a complex value with a `value` sub-attribute.
    if (this.attribute.type === "complex" && typeof value === "string" && findAttribute(this.attribute.subAttributes, "value"))
      value = { value };
    return canonicalValue(this.attribute, value, this.key, single);
  }

  get members() {
    return this.attribute?.name === "members";
  }

  canonicalList(value: unknown): unknown[] {
    return this.attribute ? (this.canonical(value) as unknown[]) : Array.isArray(value) ? value : [value];
  }

  whole(value: unknown) {
    const multi = this.attribute ? this.attribute.multiValued : Array.isArray(this.container[this.key]);
    if (this.op === "remove") {
      if (value !== undefined && value !== null && multi) {
        // Entra ID removes members with a list of values: [{"value": "<id>"}].
        const gone = this.canonicalList(value);
        if (this.members) {
          const set = this.memberSet;
          for (const item of gone) set.delete(item);
          return this.settleMembers(set);
        }
        const named = removalMatcher(this.attribute, gone);
        this.list = this.list.filter((item) => !named(item));
      } else delete this.container[this.key];
      return;
    }
    if (value === null) return void delete this.container[this.key];
    if (multi) {
      const items = this.canonicalList(value);
      if (this.op === "replace") return void (this.list = items);
      // Members are unique by id, even within one list; other values only against those already there.
      if (this.members) {
        const set = this.memberSet;
        const added = items.filter((item) => set.add(item));
        this.settleMembers(set);
        return this.onePrimary(added);
      }
      const list = this.list;
      const added = notIn(list, items);
      this.list = [...list, ...added];
      return this.onePrimary(added);
    }
    const item = this.canonical(value);
    const current = this.container[this.key];
    // A complex value's sub-attributes are merged: those not given are left unchanged (§3.5.2.3).
    this.container[this.key] =
      isObject(current) && isObject(item) && (this.attribute?.type === "complex" || this.op === "add") ? { ...current, ...item } : item;
  }

  sub(name: string, value: unknown) {
    if (this.attribute && this.attribute.type !== "complex") throw invalidPath(`${this.attribute.name} has no sub-attributes`);
    const subAttribute = findAttribute(this.attribute?.subAttributes, name);
    if (subAttribute?.mutability === "readOnly") return;
    const current = this.container[this.key];
    const subKey = subAttribute?.name ?? (isObject(current) ? keyOf(current, name) : undefined) ?? name;
    const set = (element: Json) => {
      if (this.op === "remove" || value === null) delete element[subKey];
      else element[subKey] = subAttribute ? canonicalValue(subAttribute, value, `${this.key}.${subKey}`) : value;
    };
    if (this.attribute?.multiValued) {
      // `emails.value` without a filter: every value's (a new one if there is none).
      const list = this.list.filter(isObject);
      if (list.length === 0 && this.op !== "remove" && value !== null) list.push({});
      list.forEach(set);
      return void (this.list = list.filter((element) => Object.keys(element).length > 0));
    }
    if (!isObject(current)) {
      if (this.op === "remove" || value === null) return;
      this.container[this.key] = {};
    }
    const object = this.container[this.key] as Json;
    set(object);
    if (Object.keys(object).length === 0) delete this.container[this.key];
  }

  filtered(filter: Filter, sub: string | null, value: unknown, text: string) {
    if (this.attribute && !this.attribute.multiValued) throw invalidPath(`'${text}': a value filter needs a multi-valued attribute`);
    const subAttributes = this.attribute?.subAttributes;
    const matched = this.matching(filter);
    if (this.op === "remove") {
      if (sub === null) {
        if (!this.members) return void (this.list = without(this.list, matched));
        const set = this.memberSet;
        for (const element of matched) set.delete(element);
        return this.settleMembers(set);
      }
      const subKey = findAttribute(subAttributes, sub)?.name ?? sub;
      for (const element of matched) if (isObject(element)) delete element[subKey];
      return;
    }
    const subAttribute = sub === null ? null : findAttribute(subAttributes, sub);
    const subKey = sub === null ? null : (subAttribute?.name ?? sub);
    const given = (): Json => {
      if (subKey === null) {
        if (!isObject(value)) throw invalidValue(`'${text}' selects values of ${this.key}: the value must be an object`);
        return value;
      }
      return { [subKey]: value };
    };
    if (matched.length === 0) {
      // Nothing matches: RFC 7644 says noTarget for replace, but Entra ID replaces
      // `emails[type eq "work"].value` on users who have no work email yet, so a filter of
      // plain equalities makes the value it describes (as scim-patch does).
      const equalities = equalitiesOf(filter);
      if (!equalities) throw noTarget(`No value of ${this.key} matches '${text}'`);
      const named = Object.fromEntries(
        Object.entries(equalities).map(([name, v]) => [findAttribute(subAttributes, name)?.name ?? name, v]),
      );
      const element = this.canonical({ ...named, ...given() }, true);
      if (this.members) this.memberSet.add(element);
      else this.list = [...this.list, element];
      return this.onePrimary([element]);
    }
    for (const element of matched) {
      if (!isObject(element)) continue;
      const change = this.canonical(given(), true) as Json;
      Object.assign(element, change);
      if (subKey !== null && value === null) delete element[subKey];
    }
    // A member's id may have changed: its members are held by id anew.
    if (this.members) this.container[this.key] = new MemberSet(this.list);
    this.onePrimary(matched);
  }

  /** The values a filter selects: a member at once by its id (`members[value eq "…"]`, Okta's remove), any other by testing each. */
  matching(filter: Filter): unknown[] {
    if (this.members && filter.op === "eq" && typeof filter.value === "string") {
      const { urn, attr, sub } = filter.path;
      if (urn === null && sub === null && attr.toLowerCase() === "value") {
        const member = this.memberSet.byId(filter.value);
        return member === undefined ? [] : [member];
      }
    }
    return this.list.filter((element) => matchesFilter(element, filter, this.attribute?.subAttributes));
  }

  /** RFC 7644 §3.5.2: a value made primary makes the others not primary. */
  onePrimary(changed: unknown[]) {
    if (!changed.some((element) => isObject(element) && element.primary === true)) return;
    const kept = new Set(changed);
    for (const element of this.list) if (isObject(element) && element.primary === true && !kept.has(element)) element.primary = false;
  }
}

/** `list` without the elements of `gone` (the same objects). */
function without(list: unknown[], gone: unknown[]): unknown[] {
  const drop = new Set(gone);
  return list.filter((element) => !drop.has(element));
}
