/**
 * SCIM PATCH (RFC 7644 §3.5.2) as Okta and Entra ID send it: ops in any case (`"Replace"`),
 * path-less value objects (whose keys may themselves be paths, as Entra sends
 * `"name.givenName"`), `"True"`/`"False"` for booleans, filtered paths
 * (`emails[type eq "work"].value`, `members[value eq "…"]`), extension paths, and member lists
 * removed by value. Pure: a canonical resource in, a new one out.
 */
import { invalidPath, invalidSyntax, invalidValue, mutability, noTarget } from "./errors.ts";
import { equalitiesOf, matchesFilter } from "./filter-match.ts";
import { parsePatchPath, type Filter } from "./filter.ts";
import {
  canonicalValue,
  coreSchemaOf,
  findAttribute,
  isObject,
  knownSchemaUrn,
  lookupAttribute,
  type ResourceKind,
  type ScimAttribute,
} from "./schema.ts";

export const PATCH_OP_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const OPS = ["add", "remove", "replace"] as const;

export interface PatchOperation {
  op: "add" | "remove" | "replace";
  path?: string;
  value?: unknown;
}

type Json = Record<string, unknown>;
const keyOf = (object: Json, name: string) => Object.keys(object).find((key) => key.toLowerCase() === name.toLowerCase());

/** Validates a PatchOp body (schemas must include urn:ietf:params:scim:api:messages:2.0:PatchOp; ops in any case → lowercase). 400 invalidSyntax otherwise. */
export function parsePatchRequest(body: unknown): PatchOperation[] {
  if (!isObject(body)) throw invalidSyntax("The body must be a PatchOp object");
  const schemas = body[keyOf(body, "schemas") ?? "schemas"];
  if (!Array.isArray(schemas) || !schemas.some((urn) => typeof urn === "string" && urn.toLowerCase() === PATCH_OP_SCHEMA.toLowerCase()))
    throw invalidSyntax(`schemas must include ${PATCH_OP_SCHEMA}`);
  const operations = body[keyOf(body, "Operations") ?? "Operations"];
  if (!Array.isArray(operations) || operations.length === 0) throw invalidSyntax("Operations must be a non-empty list");
  return operations.map((raw: unknown, index) => {
    const where = `Operations[${index}]`;
    if (!isObject(raw)) throw invalidSyntax(`${where} must be an object`);
    const op = raw[keyOf(raw, "op") ?? "op"];
    const lower = typeof op === "string" ? op.toLowerCase() : "";
    if (!(OPS as readonly string[]).includes(lower)) throw invalidSyntax(`${where}.op must be add, remove or replace`);
    const path = raw[keyOf(raw, "path") ?? "path"];
    if (path !== undefined && path !== null && typeof path !== "string") throw invalidSyntax(`${where}.path must be a string`);
    const valueKey = keyOf(raw, "value");
    if (lower !== "remove" && valueKey === undefined) throw invalidSyntax(`${where} (${lower}) needs a value`);
    return {
      op: lower as PatchOperation["op"],
      ...(typeof path === "string" && path.trim() !== "" ? { path } : {}),
      ...(valueKey !== undefined ? { value: raw[valueKey] } : {}),
    };
  });
}

/**
 * Applies the operations to a canonical resource (a Group's `members` as [{value, display?}] in
 * it), answering a new canonical resource; the input is not mutated. Throws ScimError
 * (invalidPath, noTarget, invalidValue, mutability for `id`/`meta`).
 */
export function applyPatch(kind: ResourceKind, resource: Record<string, unknown>, operations: PatchOperation[]): Record<string, unknown> {
  const result = structuredClone(resource);
  for (const operation of operations) new Patcher(kind, result, operation.op).apply(operation.path, operation.value);
  return result;
}

const REQUIRED: Record<ResourceKind, string> = { User: "userName", Group: "displayName" };

class Patcher {
  constructor(
    readonly kind: ResourceKind,
    readonly resource: Json,
    readonly op: PatchOperation["op"],
  ) {}

  apply(path: string | undefined, value: unknown) {
    const core = coreSchemaOf(this.kind);
    const urn = path === undefined ? core : knownSchemaUrn(this.kind, path.trim());
    if (urn === null) return this.at(path!, value);
    if (this.op === "remove") {
      if (urn === core) throw noTarget("A remove operation needs a path");
      delete this.resource[urn];
      return;
    }
    // No path (or a whole schema's URN): the value is a set of attributes, each applied at its
    // own path. Entra puts paths in the keys ("name.givenName", "urn:…:User:department").
    if (!isObject(value)) throw invalidValue("Without a path, the value must be an object of attributes");
    for (const [key, item] of Object.entries(value)) {
      // Okta's group rename sends the group's own id along with displayName: not a change.
      if (urn === core && /^(id|meta|schemas)$/i.test(key)) continue;
      const schema = knownSchemaUrn(this.kind, key);
      if (urn === core && schema !== null) this.apply(key, item);
      else if (urn === core && key.toLowerCase().startsWith("urn:") && isObject(item)) this.opaque(key, item);
      else this.at(urn === core ? key : `${urn}:${key}`, item);
    }
  }

  /** An object under a URN we don't know: kept as given, merged like a complex attribute. */
  opaque(key: string, item: Json) {
    const existing = keyOf(this.resource, key) ?? key;
    const current = this.resource[existing];
    this.resource[existing] = this.op === "add" && isObject(current) ? { ...current, ...item } : item;
  }

  at(text: string, value: unknown) {
    const { path, filter, sub } = parsePatchPath(text);
    const core = coreSchemaOf(this.kind);
    const urn = path.urn === null ? core : knownSchemaUrn(this.kind, path.urn);
    const attribute = urn === null ? null : lookupAttribute(this.kind, urn === core ? null : urn, path.attr);
    if (attribute?.mutability === "readOnly") throw mutability(`${attribute.name} is read-only`);
    if (attribute?.mutability === "writeOnly") return; // a password: never kept here
    const required = urn === core && attribute?.name === REQUIRED[this.kind];
    if (required && sub === null && path.sub === null && (this.op === "remove" || value === null))
      throw mutability(`${attribute!.name} is required and cannot be removed`);

    const containerKey = urn === core ? null : (urn ?? keyOf(this.resource, path.urn!) ?? path.urn!);
    const found = containerKey === null ? this.resource : this.resource[containerKey];
    if (!isObject(found) && this.op === "remove") return;
    const container: Json = isObject(found) ? found : {};
    if (containerKey !== null) this.resource[containerKey] = container;
    const key = attribute?.name ?? keyOf(container, path.attr) ?? path.attr;
    const target = new Target(container, key, attribute, this.op);
    if (filter) target.filtered(filter, sub, value, text);
    else if (path.sub !== null) target.sub(path.sub, value);
    else target.whole(value);
    if (containerKey !== null && Object.keys(container).length === 0) delete this.resource[containerKey];
  }
}

/** One attribute of one object (the resource or an extension's object) that an operation changes. */
class Target {
  constructor(
    readonly container: Json,
    readonly key: string,
    readonly attribute: ScimAttribute | null,
    readonly op: PatchOperation["op"],
  ) {}

  get list(): unknown[] {
    const current = this.container[this.key];
    return Array.isArray(current) ? current : [];
  }

  set list(items: unknown[]) {
    if (items.length === 0) delete this.container[this.key];
    else this.container[this.key] = items;
  }

  canonical(value: unknown, single = false): unknown {
    if (!this.attribute) return value;
    // Entra sends the manager as its id alone: a complex value with a `value` sub-attribute.
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
        // Entra removes members with a list of values: [{"value": "<id>"}].
        const gone = this.canonicalList(value);
        const mode = this.members ? "members" : "remove";
        this.list = this.list.filter((item) => !gone.some((other) => sameValue(item, other, mode)));
      } else delete this.container[this.key];
      return;
    }
    if (value === null) return void delete this.container[this.key];
    if (multi) {
      const items = this.canonicalList(value);
      if (this.op === "replace") return void (this.list = items);
      const list = this.list;
      const mode = this.members ? "members" : "add";
      // Members are unique by id, even within one list; other values only against those already there.
      const seen = (index: number) => (this.members ? [...list, ...items.slice(0, index)] : list);
      const added = items.filter((item, index) => !seen(index).some((other) => sameValue(other, item, mode)));
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
    const list = this.list;
    const matched = list.filter((element) => matchesFilter(element, filter, subAttributes));
    if (this.op === "remove") {
      if (sub === null) return void (this.list = list.filter((element) => !matched.includes(element)));
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
      // Nothing matches: RFC 7644 says noTarget for replace, but Entra replaces
      // `emails[type eq "work"].value` on users who have no work email yet, so a filter of
      // plain equalities makes the value it describes (as scim-patch does).
      const equalities = equalitiesOf(filter);
      if (!equalities) throw noTarget(`No value of ${this.key} matches '${text}'`);
      const named = Object.fromEntries(
        Object.entries(equalities).map(([name, v]) => [findAttribute(subAttributes, name)?.name ?? name, v]),
      );
      const element = this.canonical({ ...named, ...given() }, true);
      this.list = [...list, element];
      return this.onePrimary([element]);
    }
    for (const element of matched) {
      if (!isObject(element)) continue;
      const change = this.canonical(given(), true) as Json;
      Object.assign(element, change);
      if (subKey !== null && value === null) delete element[subKey];
    }
    this.onePrimary(matched);
  }

  /** RFC 7644 §3.5.2: a value made primary makes the others not primary. */
  onePrimary(changed: unknown[]) {
    if (!changed.some((element) => isObject(element) && element.primary === true)) return;
    for (const element of this.list)
      if (isObject(element) && element.primary === true && !changed.includes(element)) element.primary = false;
  }
}

/**
 * Whether a value is already there (add) or is the one to remove. A Group's members are the same
 * member when their ids are (Entra removes `[{"value": "<id>"}]` from members that have a
 * display); a removal value names the fields it matches on; else deep equality (§3.5.2.1: adding
 * a value already present changes nothing).
 */
function sameValue(existing: unknown, given: unknown, mode: "members" | "remove" | "add"): boolean {
  if (mode === "members" && isObject(existing) && isObject(given) && typeof existing.value === "string" && typeof given.value === "string")
    return existing.value.toLowerCase() === given.value.toLowerCase();
  if (mode === "remove" && isObject(existing) && isObject(given))
    return Object.entries(given).every(([key, value]) => stableJson(existing[key]) === stableJson(value));
  return stableJson(existing) === stableJson(given);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson(value[key])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}
