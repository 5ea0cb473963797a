/**
 * Webhook content filters (server/webhooks/filter.ts) against a reference: generated expressions
 * of ==, !=, in, has(), &&, ||, ! and field access over generated payloads, evaluated by a small
 * interpreter written here to CEL's rules (a missing key is an error; && and || absorb an error
 * when the other side decides; values of different types are unequal, ints and doubles compare as
 * numbers). The evaluator must never throw, must agree on every outcome, and an error must never match.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { evaluateFilter, filterProblem, type FilterPayload } from "../../server/webhooks/filter.ts";

type Value = string | number | boolean | null | Value[];
type Path = { root: "data.details" | "event"; key: string };
type Expr =
  | { op: "lit"; value: boolean }
  | { op: "==" | "!="; path: Path; value: Value }
  | { op: "in"; path: Path; values: Value[] }
  | { op: "has"; path: Path }
  | { op: "&&" | "||"; left: Expr; right: Expr }
  | { op: "!"; inner: Expr };

const ERROR = Symbol("error");
type Outcome = boolean | typeof ERROR;

const KEYS = ["role", "amount", "active", "tags"];
const scalar = fc.oneof(
  fc.constantFrom("admin", "member", "", 'a"b', "é"),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0.5, 2.5),
  fc.boolean(),
  fc.constant(null),
);
const valueArb: fc.Arbitrary<Value> = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }));
const pathArb: fc.Arbitrary<Path> = fc.oneof(
  fc.record({ root: fc.constant("data.details" as const), key: fc.constantFrom(...KEYS) }),
  fc.record({ root: fc.constant("event" as const), key: fc.constantFrom("type", "tenant_id", "missing") }),
);

const exprArb: fc.Arbitrary<Expr> = fc.letrec<{ expr: Expr }>((tie) => ({
  expr: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.record({ op: fc.constant("lit" as const), value: fc.boolean() }),
    fc.record({ op: fc.constantFrom("==" as const, "!=" as const), path: pathArb, value: scalar }),
    fc.record({ op: fc.constant("in" as const), path: pathArb, values: fc.array(scalar, { minLength: 1, maxLength: 3 }) }),
    fc.record({ op: fc.constant("has" as const), path: pathArb }),
    fc.record({ op: fc.constantFrom("&&" as const, "||" as const), left: tie("expr"), right: tie("expr") }),
    fc.record({ op: fc.constant("!" as const), inner: tie("expr") }),
  ),
})).expr;

const payloadArb = fc.record({
  type: fc.constantFrom("user.created", "invoice.paid"),
  details: fc.dictionary(fc.constantFrom(...KEYS), valueArb, { maxKeys: 4 }),
});

function literal(value: Value): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toFixed(1);
  return JSON.stringify(value);
}
const pathText = (p: Path) => `${p.root}.${p.key}`;

function toCel(e: Expr): string {
  switch (e.op) {
    case "lit":
      return String(e.value);
    case "==":
    case "!=":
      // dyn(): the literal's type must not decide the overload at check time (the field is dyn).
      return `${pathText(e.path)} ${e.op} dyn(${literal(e.value)})`;
    case "in":
      return `${pathText(e.path)} in [${e.values.map((v) => `dyn(${literal(v)})`).join(", ")}]`;
    case "has":
      return `has(${pathText(e.path)})`;
    case "&&":
    case "||":
      return `(${toCel(e.left)} ${e.op} ${toCel(e.right)})`;
    case "!":
      return `!(${toCel(e.inner)})`;
  }
}

function equal(a: Value, b: Value): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]!));
  }
  return a === b;
}

function lookup(payload: FilterPayload, p: Path): Value | typeof ERROR {
  const map = (p.root === "event" ? payload : payload.data.details) as Record<string, Value>;
  return Object.hasOwn(map, p.key) ? map[p.key]! : ERROR;
}

function reference(e: Expr, payload: FilterPayload): Outcome {
  switch (e.op) {
    case "lit":
      return e.value;
    case "==":
    case "!=": {
      const v = lookup(payload, e.path);
      if (v === ERROR) return ERROR;
      return e.op === "==" ? equal(v, e.value) : !equal(v, e.value);
    }
    case "in": {
      const v = lookup(payload, e.path);
      return v === ERROR ? ERROR : e.values.some((x) => equal(v, x));
    }
    case "has": {
      return lookup(payload, e.path) !== ERROR;
    }
    case "&&": {
      const [l, r] = [reference(e.left, payload), reference(e.right, payload)];
      if (l === false || r === false) return false;
      return l === ERROR || r === ERROR ? ERROR : true;
    }
    case "||": {
      const [l, r] = [reference(e.left, payload), reference(e.right, payload)];
      if (l === true || r === true) return true;
      return l === ERROR || r === ERROR ? ERROR : false;
    }
    case "!": {
      const inner = reference(e.inner, payload);
      return inner === ERROR ? ERROR : !inner;
    }
  }
}

const payloadOf = (p: { type: string; details: Record<string, Value> }): FilterPayload =>
  JSON.parse(
    JSON.stringify({
      id: "0b1f6c2e-8e0a-4a53-9a55-2f9c1b7f2d10",
      type: p.type,
      tenant_id: "5d3c8a7e-4b1a-4c6e-8f0d-1a2b3c4d5e6f",
      created_at: "2026-12-07T00:00:00.000Z",
      data: { actor: { id: null, email: null }, target: null, details: p.details },
    }),
  ) as FilterPayload;

describe("webhook filters against a reference interpreter", () => {
  test("generated expressions are valid on save", () => {
    fc.assert(
      fc.property(exprArb, (e) => {
        expect(filterProblem(toCel(e))).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  test("the evaluator never throws, agrees with the reference, and an error never matches", () => {
    fc.assert(
      fc.property(exprArb, payloadArb, (e, p) => {
        const payload = payloadOf(p);
        const expected = reference(e, payload);
        const got = evaluateFilter(toCel(e), payload);
        expect({ expression: toCel(e), matches: got.matches, error: got.error !== null }).toEqual({
          expression: toCel(e),
          matches: expected === true,
          error: expected === ERROR,
        });
      }),
      { numRuns: 2000 },
    );
  });

  test("arbitrary text never throws: a problem on save, or an outcome", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), payloadArb, (text, p) => {
        expect(() => filterProblem(text)).not.toThrow();
        const got = evaluateFilter(text, payloadOf(p));
        if (filterProblem(text) !== null) expect(got).toEqual({ matches: false, error: "the filter does not compile" });
        else expect(typeof got.matches).toBe("boolean");
      }),
      { numRuns: 1000 },
    );
  });
});
