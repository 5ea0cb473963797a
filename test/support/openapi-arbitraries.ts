/**
 * fast-check arbitraries from the JSON schemas of an OpenAPI document: values the schema allows,
 * and values it forbids (each labelled with why), for the fuzz test.
 */
import fc from "fast-check";
import { resolveSchema, type JsonSchema, type OpenApiDocument } from "./openapi-document.ts";

/** A generated value; `forbidden` says which rule of the schema it breaks (null: none). */
export interface Gen {
  value: unknown;
  forbidden: string | null;
}

const LIMIT = 2 ** 31;
/** A string of exactly `length` non-space characters (trimming cannot bring it back under a limit). */
export const letters = (length: number) => fc.constantFrom("a", "x", "é").map((c) => c.repeat(length));
const typeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "number" ? "integer" : typeof v);
const WRONG_TYPES: unknown[] = [12345, true, [], { x: 1 }, "text", null];
/** Strings a schema without a pattern allows, that have broken servers before. */
const NASTY = [
  "💥\u0000",
  "x\ud800y",
  "\udc00",
  "a\u0000b",
  " ",
  "'; DROP TABLE tenants; --",
  "%00%ff",
  "\u202eevil",
  "../../etc/passwd",
  "1e309",
];

/**
 * `hints`: realistic values for properties by name (the real tenant's id for `tenant_id`), so that
 * requests get past "not found" to the code that stores things.
 */
export function makeArbitraries(doc: OpenApiDocument, hints: Record<string, fc.Arbitrary<unknown>> = {}) {
  const resolve = (schema: JsonSchema) => resolveSchema(doc, schema);
  const variants = (schema: JsonSchema): JsonSchema[] => (schema.anyOf ?? schema.oneOf ?? [schema]).map(resolve);
  const allows = (schema: JsonSchema, type: string) => variants(schema).some((s) => s.type === type || (type === "null" && s.nullable));

  function valid(input: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
    const schema = resolve(input);
    if (schema.anyOf || schema.oneOf) return fc.oneof(...variants(schema).map((s) => valid(s, depth)));
    if (schema.enum) return fc.constantFrom(...schema.enum);
    switch (schema.type) {
      case "string":
        return validString(schema);
      case "integer": {
        const min = Math.max(schema.minimum ?? -LIMIT, -LIMIT);
        const max = Math.min(schema.maximum ?? LIMIT, LIMIT);
        return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
      }
      case "number":
        return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true });
      case "boolean":
        return fc.boolean();
      case "null":
        return fc.constant(null);
      case "array":
        return fc.array(valid(schema.items ?? {}, depth + 1), {
          minLength: schema.minItems ?? 0,
          maxLength: Math.min(schema.maxItems ?? 3, Math.max(schema.minItems ?? 0, 3)),
        });
      case "object":
        return validObject(schema, depth);
      default:
        return depth > 2 ? fc.constant("x") : fc.jsonValue({ maxDepth: 2 });
    }
  }

  function validString(schema: JsonSchema): fc.Arbitrary<string> {
    const min = schema.minLength ?? 0;
    const max = Math.min(schema.maxLength ?? 60, 100_000);
    if (schema.format === "uuid") return fc.uuid({ version: 4 });
    if (schema.format === "email") return fc.stringMatching(/^[a-z]{1,12}$/).map((local) => `${local}@example.com`);
    if (schema.format === "date-time")
      return fc.date({ min: new Date("2000-01-01"), max: new Date("2030-01-01"), noInvalidDate: true }).map((d) => d.toISOString());
    if (schema.pattern) {
      try {
        return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= min && s.length <= max);
      } catch {
        return fc.constant("a".repeat(Math.max(1, min)));
      }
    }
    const nasty = NASTY.filter((s) => s.length >= min && s.length <= max);
    return fc.oneof(
      { weight: 2, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, 40) }) },
      ...(nasty.length ? [{ weight: 4, arbitrary: fc.constantFrom(...nasty) }] : []),
      { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: min, maxLength: Math.min(max, 40) }) },
      { weight: 1, arbitrary: letters(max) },
    );
  }

  function validObject(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
    const properties: Record<string, JsonSchema> = schema.properties ?? {};
    if (!Object.keys(properties).length) {
      return depth > 2 ? fc.constant({}) : fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 });
    }
    const model = Object.fromEntries(
      Object.entries(properties).map(([key, s]) => [key, hints[key] ? fc.oneof(hints[key]!, valid(s, depth + 1)) : valid(s, depth + 1)]),
    );
    const required: string[] = schema.required ?? [];
    // Only the required fields half the time: optional ones often fail first (not found, forbidden).
    return fc.oneof(
      fc.record(Object.fromEntries(Object.entries(model).filter(([key]) => required.includes(key)))),
      fc.record(model, { requiredKeys: required }),
    );
  }

  /** Values the schema forbids, with the reason. */
  function invalid(input: JsonSchema, depth = 0): fc.Arbitrary<Gen> {
    const schema = resolve(input);
    const why =
      (label: string) =>
      (value: unknown): Gen => ({ value, forbidden: label });
    const options: fc.Arbitrary<Gen>[] = [];
    // An untyped schema ({}, free-form JSON) allows every type.
    const typed = variants(schema).every((s) => s.type !== undefined);
    const wrongTypes = typed
      ? WRONG_TYPES.filter((v) => !allows(schema, typeOf(v)) && !(typeOf(v) === "integer" && allows(schema, "number")))
      : [];
    if (wrongTypes.length) options.push(fc.constantFrom(...wrongTypes).map(why("wrong type")));
    const single = variants(schema).length === 1 ? schema : null;
    if (single?.enum) options.push(fc.constant("not-one-of-the-values").map(why("not in enum")));
    else if (single?.type === "string") {
      if (single.maxLength !== undefined && single.maxLength < 200_000)
        options.push(letters(single.maxLength + 1).map(why(`longer than ${single.maxLength}`)));
      if (single.minLength) options.push(fc.constant("").map(why(`shorter than ${single.minLength}`)));
      if (single.format === "uuid")
        options.push(
          fc
            .constantFrom("not-a-uuid", "123e4567-e89b-12d3-a456-42661417400Z", "00000000-0000-0000-0000-00000000000")
            .map(why("not a uuid")),
        );
      if (single.format === "date-time")
        options.push(fc.constantFrom("yesterday", "2026-13-45T25:61:00Z", "0").map(why("not a date-time")));
      if (single.format === "email") options.push(fc.constantFrom("no-at-sign", "@example.com", "a@").map(why("not an email")));
    } else if (single?.type === "integer" || single?.type === "number") {
      if (single.minimum !== undefined) options.push(fc.constant(single.minimum - 1).map(why(`below ${single.minimum}`)));
      if (single.maximum !== undefined && single.maximum < Number.MAX_SAFE_INTEGER)
        options.push(fc.constant(single.maximum + 1).map(why(`above ${single.maximum}`)));
      if (single.type === "integer") options.push(fc.constantFrom(1.5, 1e308, -1e308).map(why("not an integer")));
    } else if (single?.type === "array") {
      if (single.minItems) options.push(fc.constant([]).map(why(`fewer than ${single.minItems} items`)));
      if (single.maxItems !== undefined && single.maxItems <= 1000)
        options.push(
          fc
            .array(valid(single.items ?? {}, depth + 1), { minLength: single.maxItems + 1, maxLength: single.maxItems + 1 })
            .map(why(`more than ${single.maxItems} items`)),
        );
      if (single.items && depth < 2)
        options.push(invalid(single.items, depth + 1).map((item) => ({ value: [item.value], forbidden: `item: ${item.forbidden}` })));
    } else if (single?.type === "object" && single.properties) {
      options.push(...invalidObject(single, depth));
    }
    return options.length ? fc.oneof(...options) : fc.constant({ value: undefined, forbidden: null });
  }

  function invalidObject(schema: JsonSchema, depth: number): fc.Arbitrary<Gen>[] {
    const options: fc.Arbitrary<Gen>[] = [];
    const base = validObject(schema, depth) as fc.Arbitrary<Record<string, unknown>>;
    for (const key of schema.required ?? []) {
      options.push(
        base.map((value) => ({ value: Object.fromEntries(Object.entries(value).filter(([k]) => k !== key)), forbidden: `missing ${key}` })),
      );
    }
    if (schema.additionalProperties === false) {
      options.push(base.map((value) => ({ value: { ...value, unexpected_field: "surprise" }, forbidden: "extra field unexpected_field" })));
    }
    if (depth < 2) {
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        const bad = invalid(property, depth + 1);
        options.push(
          fc
            .tuple(base, bad)
            .filter(([, b]) => b.forbidden !== null)
            .map(([value, b]) => ({ value: { ...value, [key]: b.value }, forbidden: `${key}: ${b.forbidden}` })),
        );
      }
    }
    return options;
  }

  /** Mostly valid values, sometimes forbidden ones. */
  function gen(schema: JsonSchema): fc.Arbitrary<Gen> {
    return fc.oneof(
      { weight: 1, arbitrary: valid(schema).map((value) => ({ value, forbidden: null })) },
      { weight: 1, arbitrary: invalid(schema) },
    );
  }

  return { resolve, valid, invalid, gen };
}
