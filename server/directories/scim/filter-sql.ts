/**
 * A SCIM filter as one SQL boolean expression over the row `r`, so a list query filters in the
 * database (and `userName eq` is an index seek) instead of loading the directory. Mapped columns
 * where they exist; everything else from `r.resource` jsonb by canonical path; multi-valued
 * attributes and memberships through EXISTS. Every predicate is made two-valued (never SQL NULL),
 * so `not` and `ne` mean what they say on absent attributes. Values and unknown names travel as
 * parameters; the only names written into the SQL are the schema's own.
 */
import { invalidFilter } from "./errors.ts";
import { pathText, type AttrPath, type CompareOp, type Filter, type Literal } from "./filter.ts";
import { mappedColumn, type Resolved, type Scope, type Target } from "./filter-columns.ts";
import { coreSchemaOf, findAttribute, knownSchemaUrn, lookupAttribute, type ResourceKind, type ScimAttribute } from "./schema.ts";

class Compiler {
  constructor(
    readonly kind: ResourceKind,
    readonly params: unknown[],
  ) {}

  param(value: unknown, cast: string) {
    this.params.push(value);
    return `$${this.params.length}::${cast}`;
  }

  /** A name into the SQL: the schema's names are inlined, anything else is a parameter. */
  key(name: string, known: boolean) {
    return known && /^[\w$:.-]+$/.test(name) ? `'${name}'` : this.param(name, "text");
  }

  /**
   * `negated`: under an odd number of `not`s. Only there must a comparison be made two-valued
   * (COALESCE): elsewhere SQL NULL already acts as false, and a bare `column = $1` keeps its index.
   */
  compile(filter: Filter, scope: Scope | null, negated: boolean): string {
    switch (filter.op) {
      case "and":
      case "or":
        return `(${this.compile(filter.left, scope, negated)} ${filter.op.toUpperCase()} ${this.compile(filter.right, scope, negated)})`;
      case "not":
        return `(NOT ${this.compile(filter.filter, scope, !negated)})`;
      case "[]": {
        if (scope) throw invalidFilter("value filters cannot be nested");
        const resolved = this.resolve(filter.path);
        const inner = "scope" in resolved && resolved.sub === null ? resolved.scope : this.complexScope(filter.path, resolved);
        return this.withEmailIndex(filter.path, equalValues(filter.filter), inner.exists(this.compile(filter.filter, inner, false)));
      }
      default: {
        const resolved = scope ? { single: this.inElement(scope, filter.path) } : this.resolve(filter.path);
        const value = filter.op === "pr" ? undefined : filter.value;
        if ("single" in resolved) {
          const exact = this.predicate(resolved.single, filter.op, value, filter.path, negated);
          return filter.op === "eq" && typeof value === "string" ? this.withNameIndex(filter.path, value, exact) : exact;
        }
        const target = resolved.scope.element(filter.op === "pr" ? resolved.sub : (resolved.sub ?? "value"));
        if (filter.op !== "ne") {
          const exists = resolved.scope.exists(this.predicate(target, filter.op, value, filter.path, false));
          const valueEq = filter.op === "eq" && typeof value === "string" && (resolved.sub ?? "value").toLowerCase() === "value";
          return this.withEmailIndex(filter.path, valueEq ? [value] : [], exists);
        }
        // ne on a multi-valued attribute: some present value differs, or there is none at all.
        const assigned = this.assigned(target);
        const differs = `(${assigned} AND ${this.predicate(target, "ne", value, filter.path, false)})`;
        return `(NOT ${resolved.scope.exists(assigned)} OR ${resolved.scope.exists(differs)})`;
      }
    }
  }

  /**
   * A User's `emails` compared for equality on `value`: the same test against the indexed
   * `email_values` (lower(every emails[*].value), migration 20261201040000) beside the exact one,
   * which it implies, so the answer is unchanged and the planner can seek instead of scanning.
   */
  withEmailIndex(path: AttrPath, values: string[], exact: string): string {
    const core = path.urn === null || path.urn.toLowerCase() === coreSchemaOf(this.kind).toLowerCase();
    if (this.kind !== "User" || !core || path.attr.toLowerCase() !== "emails" || values.length === 0) return exact;
    const hints = values.map((value) => `r.email_values @> ARRAY[lower(${this.param(value, "text")})]`);
    return `(${hints.join(" AND ")} AND ${exact})`;
  }

  /**
   * A User's `name.givenName` / `name.familyName` equal to a non-empty string: the same test on the
   * row's given_name / family_name (that string, kept by store-users.ts) beside the exact one, so
   * the (directory_id, lower(…)) index can seek (migration 20261201040000).
   */
  withNameIndex(path: AttrPath, value: string, exact: string): string {
    const column = { givenname: "given_name", familyname: "family_name" }[path.sub?.toLowerCase() ?? ""];
    const core = path.urn === null || path.urn.toLowerCase() === coreSchemaOf(this.kind).toLowerCase();
    if (this.kind !== "User" || !core || path.attr.toLowerCase() !== "name" || !column || value === "") return exact;
    return `(lower(r.${column}) = lower(${this.param(value, "text")}) AND ${exact})`;
  }

  inElement(scope: Scope, path: AttrPath): Target {
    if (path.urn !== null || path.sub !== null)
      throw invalidFilter(`'${pathText(path)}' inside a value filter must be a sub-attribute name`);
    return scope.element(path.attr);
  }

  /** A value filter on a single-valued complex attribute (`name[givenName sw "A"]`): the object itself. */
  complexScope(path: AttrPath, resolved: Resolved): Scope {
    if (
      !("single" in resolved) ||
      resolved.single.kind !== "json" ||
      (resolved.single.attribute && resolved.single.attribute.type !== "complex")
    )
      throw invalidFilter(`'${pathText(path)}' is not a complex attribute`);
    const base = resolved.single;
    return {
      exists: (condition) => `COALESCE(${condition}, false)`,
      element: (sub) => (sub === null ? base : this.jsonChild(base.sql, base.attribute?.subAttributes, sub, !!base.attribute)),
    };
  }

  jsonChild(base: string, attributes: ScimAttribute[] | undefined, name: string, parentKnown: boolean): Target {
    const attribute = findAttribute(attributes, name) ?? null;
    return { kind: "json", sql: `(${base} -> ${this.key(attribute?.name ?? name, parentKnown && !!attribute)})`, attribute };
  }

  /** A top-level attribute path → its column, jsonb value, or the elements it ranges over. */
  resolve(path: AttrPath): Resolved {
    const core = coreSchemaOf(this.kind);
    const urn = path.urn === null ? core : knownSchemaUrn(this.kind, path.urn);
    if (urn === null) {
      // An extension we don't know: kept as given, so read as given.
      const base = `(r.resource -> ${this.key(path.urn!, false)})`;
      const target = this.jsonChild(base, undefined, path.attr, false);
      return { single: path.sub === null ? target : this.jsonChild(target.sql, undefined, path.sub, false) };
    }
    if (urn === core && path.attr.toLowerCase() === "schemas" && path.sub === null) {
      // `schemas eq "urn:…:enterprise:2.0:User"` (an RFC example): the resource's list of URNs.
      const scope = this.jsonScope("(r.resource -> 'schemas')", SCHEMAS);
      return { scope: { ...scope, element: () => ({ kind: "json", sql: "e", attribute: { ...SCHEMAS, multiValued: false } }) }, sub: null };
    }
    const attribute = lookupAttribute(this.kind, urn === core ? null : urn, path.attr);
    if (attribute && attribute.type !== "complex" && path.sub !== null) throw invalidFilter(`'${attribute.name}' has no sub-attributes`);
    if (urn === core && attribute) {
      const mapped = mappedColumn(this.kind, attribute, path);
      if (mapped) return mapped;
    }
    const base = urn === core ? "r.resource" : `(r.resource -> '${urn}')`;
    const target = this.jsonChild(base, attribute ? [attribute] : undefined, path.attr, true);
    if (attribute?.multiValued) return { scope: this.jsonScope(target.sql, attribute), sub: path.sub };
    if (path.sub === null) return { single: target };
    if (attribute && attribute.type !== "complex") throw invalidFilter(`'${attribute.name}' has no sub-attributes`);
    return { single: this.jsonChild(target.sql, attribute?.subAttributes, path.sub, !!attribute) };
  }

  jsonScope(array: string, attribute: ScimAttribute): Scope {
    return {
      exists: (condition) =>
        `EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(${array}) = 'array' THEN ${array} ELSE '[]'::jsonb END) e WHERE ${condition})`,
      element: (sub) =>
        sub === null
          ? { kind: "json", sql: "e", attribute: { ...attribute, multiValued: false } }
          : this.jsonChild("e", attribute.subAttributes, sub, true),
    };
  }

  predicate(target: Target, op: CompareOp | "pr", value: Literal | undefined, path: AttrPath, negated: boolean): string {
    const where = pathText(path);
    if (op === "pr" || value === undefined) return this.present(target);
    if (value === null) {
      // `attr eq null`: unassigned (RFC 7643 §2.5: null is the same as absent).
      if (op === "eq") return `(NOT ${this.present(target)})`;
      if (op === "ne") return this.present(target);
      throw invalidFilter(`'${op}' needs a value other than null for '${where}'`);
    }
    if (op === "ne") return `(NOT ${this.predicate(target, "eq", value, path, true)})`;
    const comparison = this.compare(target, op, value, where);
    return negated ? `COALESCE(${comparison}, false)` : comparison;
  }

  /** Has a value at all (unlike `pr`, "" counts: `emails.value ne ""` is false for an empty one). */
  assigned(target: Target): string {
    return target.kind === "json" ? `COALESCE(${target.sql} <> 'null'::jsonb, false)` : `(${target.sql} IS NOT NULL)`;
  }

  present(target: Target): string {
    switch (target.kind) {
      case "text":
        return `COALESCE(${target.sql} <> '', false)`;
      case "json":
        return `COALESCE(${target.sql} NOT IN ('null'::jsonb, '""'::jsonb, '[]'::jsonb, '{}'::jsonb), false)`;
      default:
        return `(${target.sql} IS NOT NULL)`;
    }
  }

  compare(target: Target, op: Exclude<CompareOp, "ne">, value: string | number | boolean, where: string): string {
    if (target.kind === "bool") return this.booleanCompare(target.sql, op, value, where, (v) => this.param(v, "boolean"));
    if (target.kind === "time") {
      if (op === "co" || op === "sw" || op === "ew") throw invalidFilter(`'${op}' does not apply to the dateTime '${where}'`);
      return `${target.sql} ${SQL_OPS[op]} ${this.param(timestampOf(value, where), "timestamptz")}`;
    }
    if (target.kind === "text") {
      if (typeof value !== "string") throw invalidFilter(`'${where}' is a string: compare it with a quoted string`);
      if (op === "eq" && target.uuid && UUID.test(value)) return `${target.uuid} = ${this.param(value, "uuid")}`;
      return this.textCompare(target.lowered || target.caseExact ? target.sql : `lower(${target.sql})`, op, value, target.caseExact);
    }
    const type = target.attribute?.type ?? (typeof value === "string" ? "string" : typeof value === "number" ? "decimal" : "boolean");
    const json = target.sql;
    switch (type) {
      case "complex":
        throw invalidFilter(`'${where}' is complex: filter on a sub-attribute or use pr`);
      case "boolean":
        return this.booleanCompare(json, op, value, where, (v) => `to_jsonb(${this.param(v, "boolean")})`);
      case "decimal":
      case "integer":
        if (typeof value !== "number") throw invalidFilter(`'${where}' is a number`);
        if (op === "co" || op === "sw" || op === "ew") throw invalidFilter(`'${op}' does not apply to the number '${where}'`);
        return `(CASE WHEN jsonb_typeof(${json}) = 'number' THEN (${json} #>> '{}')::numeric END) ${SQL_OPS[op]} ${this.param(value, "numeric")}`;
      default: {
        if (typeof value !== "string") throw invalidFilter(`'${where}' is a string: compare it with a quoted string`);
        const caseExact = target.attribute?.caseExact ?? false;
        // A known attribute's values are strings in the stored form (canonicalizeResource checks);
        // one we don't know may hold anything, and only its strings compare as strings.
        const text = target.attribute ? `(${json} #>> '{}')` : `(CASE WHEN jsonb_typeof(${json}) = 'string' THEN ${json} #>> '{}' END)`;
        return this.textCompare(caseExact ? text : `lower(${text})`, op, value, caseExact);
      }
    }
  }

  booleanCompare(sql: string, op: string, value: string | number | boolean, where: string, param: (v: boolean) => string) {
    // "True"/"False" as strings: what Entra ID sends for booleans elsewhere; accepted here too.
    const bool = typeof value === "string" && /^(true|false)$/i.test(value) ? value.toLowerCase() === "true" : value;
    if (op !== "eq") throw invalidFilter(`'${op}' does not apply to the boolean '${where}'`);
    if (typeof bool !== "boolean") throw invalidFilter(`'${where}' is a boolean: compare it with true or false`);
    return `${sql} = ${param(bool)}`;
  }

  /** `left` is already lowered unless case-exact; ordering is by code point, as in the RFC's examples. */
  textCompare(left: string, op: Exclude<CompareOp, "ne">, value: string, caseExact: boolean): string {
    const right = caseExact ? this.param(value, "text") : `lower(${this.param(value, "text")})`;
    switch (op) {
      case "eq":
        return `${left} = ${right}`;
      case "co":
        return `strpos(${left}, ${right}) > 0`;
      case "sw":
        return `starts_with(${left}, ${right})`;
      case "ew":
        return `right(${left}, length(${right})) = ${right}`;
      default:
        return `${left} COLLATE "C" ${SQL_OPS[op]} ${right}`;
    }
  }
}

/**
 * A dateTime literal as Postgres reads it. JavaScript dates reach ±275760 years (past that,
 * Date.parse fails); Postgres has no year 0 nor, in ISO form, a signed year, so a date before
 * year 1 is refused and one past 9999 loses the `+` and the zeros of its expanded year.
 */
function timestampOf(value: Literal, where: string): string {
  const time = typeof value === "string" ? Date.parse(value) : NaN;
  if (Number.isNaN(time)) throw invalidFilter(`'${where}' is a dateTime: compare it with a date string between years 1 and 275760`);
  const date = new Date(time);
  if (date.getUTCFullYear() < 1) throw invalidFilter(`'${where}': ${JSON.stringify(value)} is before year 1`);
  return date.toISOString().replace(/^\+0*/, "");
}

/** The strings a value filter's elements must equal on `value` (`[type eq "work" and value eq "…"]`): its top-level `and`s only. */
function equalValues(filter: Filter): string[] {
  if (filter.op === "and") return [...equalValues(filter.left), ...equalValues(filter.right)];
  if (filter.op !== "eq" || typeof filter.value !== "string") return [];
  const { urn, attr, sub } = filter.path;
  return urn === null && sub === null && attr.toLowerCase() === "value" ? [filter.value] : [];
}

/** The `schemas` list every resource carries (RFC 7643 §3): not in a schema, but filterable. */
const SCHEMAS: ScimAttribute = {
  name: "schemas",
  type: "reference",
  multiValued: true,
  description: "The schema URNs of the resource.",
  required: true,
  caseExact: false,
  mutability: "readWrite",
  returned: "always",
  uniqueness: "none",
};

/** Ids as this service writes them (lowercase): `id` is caseExact, so only these can be equal. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const SQL_OPS = { eq: "=", gt: ">", ge: ">=", lt: "<", le: "<=" } as Record<string, string>;

/**
 * A SQL boolean expression over the row alias `r` (`directory_users r` for User,
 * `directory_groups r` for Group), pushing values into `params` and referring to them as
 * `$<index+1>` (so callers can put their own params first). Never interpolates user text.
 */
export function filterToSql(kind: ResourceKind, filter: Filter, params: unknown[]): string {
  return new Compiler(kind, params).compile(filter, null, false);
}
