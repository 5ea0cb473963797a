/**
 * A value filter evaluated on one element of a multi-valued attribute in memory: what a PATCH
 * path like `emails[type eq "work"]` selects. Same meaning as filter-sql.ts (case-insensitive
 * unless caseExact, `ne` true on an absent sub-attribute, `pr` non-empty), so a filtered PATCH
 * and a filtered GET agree on which values match.
 */
import { invalidFilter } from "./errors.ts";
import { pathText, type Filter, type Literal } from "./filter.ts";
import { findAttribute, isObject, type ScimAttribute } from "./schema.ts";

function present(value: unknown): boolean {
  if (value === undefined || value === null || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  return !isObject(value) || Object.keys(value).length > 0;
}

function valueOf(element: Record<string, unknown>, name: string): unknown {
  const key = Object.keys(element).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : element[key];
}

function compare(op: string, actual: unknown, expected: Literal, attribute: ScimAttribute | undefined): boolean {
  if (expected === null) {
    if (op === "eq") return !present(actual);
    if (op === "ne") return present(actual);
    throw invalidFilter(`'${op}' needs a value other than null`);
  }
  if (op === "ne") return !compare("eq", actual, expected, attribute);
  if (typeof expected === "boolean" || attribute?.type === "boolean") {
    if (op !== "eq") throw invalidFilter(`'${op}' does not apply to a boolean`);
    const wanted = typeof expected === "string" && /^(true|false)$/i.test(expected) ? expected.toLowerCase() === "true" : expected;
    return actual === wanted;
  }
  if (typeof expected === "number") {
    if (typeof actual !== "number") return false;
    return op === "eq"
      ? actual === expected
      : op === "gt"
        ? actual > expected
        : op === "ge"
          ? actual >= expected
          : op === "lt"
            ? actual < expected
            : op === "le"
              ? actual <= expected
              : false;
  }
  if (typeof actual !== "string") return false;
  const exact = attribute?.caseExact ?? false;
  const left = exact ? actual : actual.toLowerCase();
  const right = exact ? expected : expected.toLowerCase();
  switch (op) {
    case "eq":
      return left === right;
    case "co":
      return left.includes(right);
    case "sw":
      return left.startsWith(right);
    case "ew":
      return left.endsWith(right);
    case "gt":
      return left > right;
    case "ge":
      return left >= right;
    case "lt":
      return left < right;
    default:
      return left <= right;
  }
}

/** Whether `element` (one value of a multi-valued attribute with these sub-attributes) matches. */
export function matchesFilter(element: unknown, filter: Filter, subAttributes: ScimAttribute[] | undefined): boolean {
  switch (filter.op) {
    case "and":
      return matchesFilter(element, filter.left, subAttributes) && matchesFilter(element, filter.right, subAttributes);
    case "or":
      return matchesFilter(element, filter.left, subAttributes) || matchesFilter(element, filter.right, subAttributes);
    case "not":
      return !matchesFilter(element, filter.filter, subAttributes);
    case "[]":
      throw invalidFilter("value filters cannot be nested");
    default: {
      if (filter.path.urn !== null || filter.path.sub !== null)
        throw invalidFilter(`'${pathText(filter.path)}' inside a value filter must be a sub-attribute name`);
      // A multi-valued attribute of simple values: the element itself is its value.
      const actual = isObject(element)
        ? valueOf(element, filter.path.attr)
        : filter.path.attr.toLowerCase() === "value"
          ? element
          : undefined;
      const attribute = findAttribute(subAttributes, filter.path.attr);
      return filter.op === "pr" ? present(actual) : compare(filter.op, actual, filter.value, attribute);
    }
  }
}

/**
 * The sub-attribute values a filter pins down when it is a conjunction of `eq` (`type eq "work"`):
 * what a new element gets when an add or replace through the filter finds none. Null otherwise.
 */
export function equalitiesOf(filter: Filter): Record<string, Literal> | null {
  if (filter.op === "and") {
    const left = equalitiesOf(filter.left);
    const right = equalitiesOf(filter.right);
    return left && right ? { ...left, ...right } : null;
  }
  if (filter.op === "eq" && filter.path.sub === null && filter.path.urn === null && filter.value !== null)
    return { [filter.path.attr]: filter.value };
  return null;
}
