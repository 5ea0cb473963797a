/**
 * PATCH against an oracle nobody here wrote: fast-check generates a User and operations (add,
 * replace, remove on simple, complex, multi-valued and filtered paths, path-less value objects),
 * scim-patch's `scimPatch` and our `applyPatch` apply them, and the results must agree.
 */
import fc from "fast-check";
import { scimPatch, type ScimPatchOperation } from "scim-patch";
import { expect, test } from "vitest";
import { applyPatch, type PatchOperation } from "../../server/directories/scim/patch.ts";
import { canonicalizeResource, ENTERPRISE_USER } from "../../server/directories/scim/schema.ts";

type Json = Record<string, unknown>;
const word = fc.constantFrom("a", "b", "Ab", "x@y", "");
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
// `primary: true` is left out: RFC 7644 §3.5.2 makes the other values not primary, which
// scim-patch does not do (unit-tested in scim-patch.test.ts).
const email = fc.record(
  { value: word, type: fc.constantFrom("work", "home"), primary: maybe(fc.constant(false)) },
  { requiredKeys: ["value", "type"] },
);

const userArb = fc.record(
  {
    userName: fc.constant("u"),
    active: fc.boolean(),
    displayName: maybe(word),
    title: maybe(word),
    name: maybe(fc.record({ givenName: word, familyName: word }, { requiredKeys: ["givenName"] })),
    emails: maybe(fc.array(email, { minLength: 1, maxLength: 3 })),
    [ENTERPRISE_USER]: maybe(fc.record({ department: maybe(word), manager: maybe(fc.record({ value: word })) }, { requiredKeys: [] })),
  },
  { requiredKeys: ["userName", "active"] },
);

const upperFirst = (op: string) => fc.constantFrom(op, op[0]!.toUpperCase() + op.slice(1));
const addOrReplace = fc.constantFrom("add", "replace").chain(upperFirst);
const simplePath = fc.constantFrom(
  "displayName",
  "title",
  "name.givenName",
  "name.familyName",
  `${ENTERPRISE_USER}:department`,
  `${ENTERPRISE_USER}:manager.value`,
);
const activeValue = fc.constantFrom<unknown>(true, false, "True", "False");
const filterPath = fc.constantFrom(
  'emails[type eq "work"]',
  'emails[type eq "home"]',
  'emails[value eq "a"]',
  'emails[type eq "work" and value co "b"]',
);

const operationArb: fc.Arbitrary<Json> = fc.oneof(
  fc.record({ op: addOrReplace, path: simplePath, value: word }),
  fc.record({ op: addOrReplace, path: fc.constant("active"), value: activeValue }),
  fc.record({
    op: upperFirst("remove"),
    path: fc.constantFrom("displayName", "title", "name", "name.givenName", "emails", `${ENTERPRISE_USER}:manager`),
  }),
  fc.record({ op: addOrReplace, path: fc.constant("name"), value: fc.record({ givenName: word, familyName: word }, { requiredKeys: [] }) }),
  fc.record({ op: addOrReplace, path: fc.constant("emails"), value: fc.array(email, { minLength: 1, maxLength: 2 }) }),
  // Filtered paths with a sub-attribute (Entra's shape) and whole selected values.
  fc.record({ op: addOrReplace, path: filterPath.map((p) => `${p}.value`), value: word }),
  fc.record({ op: fc.constant("replace"), path: filterPath, value: fc.record({ value: word }) }),
  fc.record({
    op: upperFirst("remove"),
    path: fc.oneof(
      filterPath,
      filterPath.map((p) => `${p}.value`),
    ),
  }),
  // Path-less value objects, keys as attributes or as paths (Entra).
  fc.record({
    op: addOrReplace,
    value: fc.record(
      { displayName: word, title: word, active: activeValue, "name.familyName": word, [`${ENTERPRISE_USER}:department`]: word },
      { requiredKeys: [] },
    ),
  }),
);

/** RFC 7643 §2.5: an empty list or object is unassigned; both sides drop them before comparing. */
function unassignedDropped(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unassignedDropped);
  if (value && typeof value === "object") {
    const entries = Object.entries(value)
      .map(([k, v]) => [k, unassignedDropped(v)] as const)
      .filter(
        ([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0) && !(v && typeof v === "object" && Object.keys(v).length === 0),
      );
    return Object.fromEntries(entries);
  }
  return value;
}

test("applyPatch agrees with scim-patch on generated users and operations", () => {
  let compared = 0;
  let skipped = 0;
  fc.assert(
    fc.property(userArb, fc.array(operationArb, { minLength: 1, maxLength: 4 }), (generated, generatedOperations) => {
      // As they arrive: JSON (no undefined members).
      const user = JSON.parse(JSON.stringify(generated)) as Json;
      const operations = JSON.parse(JSON.stringify(generatedOperations)) as Json[];
      const lowered = operations.map((operation) => ({ ...operation, op: String(operation.op).toLowerCase() }) as PatchOperation);
      let expected: Json;
      try {
        expected = scimPatch(structuredClone(user) as never, structuredClone(operations) as unknown as ScimPatchOperation[], {
          mutateDocument: true,
          treatMissingAsAdd: true,
        }) as Json;
      } catch {
        // scim-patch refuses. Where RFC 7644 (or Entra) wants an answer, we give one:
        // - a remove through a filter that selects nothing (or on an absent list): no change,
        //   where scim-patch throws FilterArrayTargetNotFound / FilterOnEmptyArray;
        // - a replace through a filter of equalities that selects nothing: the value it
        //   describes is made, as scim-patch itself does for the `…].value` form.
        // Anything else scim-patch refuses, we must refuse too.
        const explained = lowered.some(
          ({ op, path }) => path?.includes("[") && (op === "remove" || (op === "replace" && !path.includes(" co "))),
        );
        if (!explained) expect(() => applyPatch("User", user, lowered), JSON.stringify(operations)).toThrow();
        skipped++;
        return;
      }
      const ours = applyPatch("User", user, lowered);
      // scim-patch stores values as sent ("False"); the stored form is canonical (booleans).
      expect(unassignedDropped(ours)).toEqual(unassignedDropped(canonicalizeResource("User", expected)));
      compared++;
    }),
    { numRuns: Number(process.env.SCIM_PROPERTY_RUNS ?? 2000) },
  );
  expect(compared).toBeGreaterThan(skipped * 2);
});

const memberId = fc.constantFrom("u1", "u2", "u3", "u4");
// Lists without repeats: we keep a member once even within one list (ids are unique members),
// scim-patch keeps repeats of a list it adds.
const members = fc.uniqueArray(memberId, { minLength: 1, maxLength: 3 }).map((ids) => ids.map((value) => ({ value })));
const groupArb = fc.record({ displayName: fc.constantFrom("Eng", "Sales"), members: maybe(members) }, { requiredKeys: ["displayName"] });
const groupOperationArb: fc.Arbitrary<Json> = fc.oneof(
  fc.record({ op: upperFirst("add"), path: fc.constant("members"), value: members }),
  fc.record({ op: upperFirst("replace"), path: fc.constant("members"), value: members }),
  fc.record({ op: upperFirst("remove"), path: memberId.map((id) => `members[value eq "${id}"]`) }),
  fc.record({ op: upperFirst("remove"), path: fc.constant("members"), value: members }),
  fc.record({ op: upperFirst("remove"), path: fc.constant("members") }),
  fc.record({ op: addOrReplace, path: fc.constant("displayName"), value: fc.constantFrom("Eng", "Engineering") }),
  fc.record({ op: upperFirst("replace"), value: fc.record({ displayName: fc.constantFrom("Eng", "Ops") }) }),
);

test("applyPatch agrees with scim-patch on generated groups and member operations", () => {
  fc.assert(
    fc.property(groupArb, fc.array(groupOperationArb, { minLength: 1, maxLength: 5 }), (generated, generatedOperations) => {
      const group = JSON.parse(JSON.stringify(generated)) as Json;
      const operations = JSON.parse(JSON.stringify(generatedOperations)) as Json[];
      const lowered = operations.map((operation) => ({ ...operation, op: String(operation.op).toLowerCase() }) as PatchOperation);
      let expected: Json;
      try {
        expected = scimPatch(structuredClone(group) as never, structuredClone(operations) as unknown as ScimPatchOperation[], {
          mutateDocument: true,
          treatMissingAsAdd: true,
        }) as Json;
      } catch {
        // Only a remove through a filter on a group without members (FilterOnEmptyArray there;
        // no change per RFC 7644) or a value list removed from absent members.
        expect(lowered.some(({ op }) => op === "remove")).toBe(true);
        return;
      }
      expect(unassignedDropped(applyPatch("Group", group, lowered))).toEqual(unassignedDropped(canonicalizeResource("Group", expected)));
    }),
    { numRuns: Number(process.env.SCIM_PROPERTY_RUNS ?? 2000) },
  );
});
