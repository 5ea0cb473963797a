/**
 * SCIM filters as SQL against oracles: scim2-parse-filter decides what a generated filter matches
 * on generated users, and the PATCH path matcher (filter-match.ts) must select what the SQL does.
 */
import fc from "fast-check";
import { parse as oracleParse, Tester, type Filter as OracleFilter } from "scim2-parse-filter";
import { beforeAll, describe, expect, test } from "vitest";
import { database } from "../../server/db/client.ts";
import type { SqlStatements } from "../../server/db/sql.ts";
import { parseFilter } from "../../server/directories/scim/filter.ts";
import { matchesFilter } from "../../server/directories/scim/filter-match.ts";
import { ENTERPRISE_USER, SCIM_SCHEMAS } from "../../server/directories/scim/schema.ts";
import { createTenant } from "../support/fixtures.ts";
import { insertUsers, matching, newDirectory, type Json, type Seed } from "../support/scim-seed.ts";

let tenantId = "";
let sql: SqlStatements;
beforeAll(async () => {
  [{ id: tenantId }, { sql }] = await Promise.all([createTenant(), database()]);
});

// ---- The property test: our SQL vs scim2-parse-filter on the same generated users. ----

const CORE = "urn:ietf:params:scim:schemas:core:2.0:User";
const piece = fc.constantFrom("a", "B", "c", "ab", "Ab", "x%", "_", "\\", "'", '"', " ", "0", "E");
const word = fc.array(piece, { maxLength: 3 }).map((parts) => parts.join(""));
// scim2-parse-filter's tokenizer cannot read an escaped backslash (`"\\"` fails as "not json"), so
// filter values leave it out; the stored data keeps it (and our parser's unit tests cover it).
const filterWord = word.map((text) => text.replaceAll("\\", "/"));
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const withCase = (text: string) =>
  fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((ups) => [...text].map((c, i) => (ups[i] ? c.toUpperCase() : c.toLowerCase())).join(""));

const emailArb = fc.record(
  { value: word, type: maybe(fc.constantFrom("work", "home", "Other")), primary: maybe(fc.boolean()) },
  { requiredKeys: ["value"] },
);
const userArb = fc.record(
  {
    userName: word,
    externalId: maybe(word),
    active: fc.boolean(),
    name: maybe(fc.record({ givenName: word, familyName: word }, { requiredKeys: [] })),
    displayName: maybe(word),
    title: maybe(word),
    emails: maybe(fc.array(emailArb, { maxLength: 3 })),
    phoneNumbers: maybe(fc.array(fc.record({ value: word, type: fc.constantFrom("work", "mobile") }), { maxLength: 2 })),
    enterprise: maybe(fc.record({ department: maybe(word), manager: maybe(fc.record({ value: word })) }, { requiredKeys: [] })),
  },
  { requiredKeys: ["userName", "active"] },
);
type GeneratedUser = typeof userArb extends fc.Arbitrary<infer T> ? T : never;

function toSeed(user: GeneratedUser, index: number): Seed {
  const { enterprise, externalId, ...rest } = user;
  // userName is unique per directory regardless of case: a suffix keeps generated ones apart.
  const userName = `${user.userName}-${index}`;
  const resource = JSON.parse(
    JSON.stringify({ ...rest, userName, externalId, ...(enterprise ? { [ENTERPRISE_USER]: enterprise } : {}) }),
  ) as Json;
  return { userName, externalId, active: user.active, resource };
}

const STRING_PATHS = [
  "userName",
  `${CORE}:userName`,
  "displayName",
  "title",
  "name.givenName",
  "name.familyName",
  "emails",
  "emails.value",
  "emails.type",
  "phoneNumbers.value",
  `${ENTERPRISE_USER}:department`,
  `${ENTERPRISE_USER}:manager.value`,
  "externalId",
];
const ops = fc.constantFrom("eq", "ne", "co", "sw", "ew", "gt", "ge", "lt", "le");
const stringLeaf = fc
  .tuple(fc.constantFrom(...STRING_PATHS), ops, filterWord)
  .chain(([attr, op, value]) => fc.tuple(withCase(attr), withCase(op)).map(([a, o]) => `${a} ${o} ${JSON.stringify(value)}`));
const boolLeaf = fc
  .tuple(fc.constantFrom("active", "emails.primary"), fc.constantFrom("eq", "ne"), fc.boolean())
  .map(([a, o, v]) => `${a} ${o} ${v}`);
const presentLeaf = fc.constantFrom(...STRING_PATHS, "name", "emails", "phoneNumbers", `${ENTERPRISE_USER}:manager`).map((a) => `${a} pr`);
const elementLeaf = fc.oneof(
  fc.tuple(fc.constantFrom("value", "type"), ops, filterWord).map(([a, o, v]) => `${a} ${o} ${JSON.stringify(v)}`),
  fc.tuple(fc.constantFrom("eq", "ne"), fc.boolean()).map(([o, v]) => `primary ${o} ${v}`),
  fc.constantFrom("value pr", "type pr", "primary pr"),
);
const elementFilter: fc.Arbitrary<string> = fc.letrec<{ f: string }>((tie) => ({
  f: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    elementLeaf,
    fc.tuple(tie("f"), fc.constantFrom("and", "or"), tie("f")).map(([l, o, r]) => `(${l} ${o} ${r})`),
    tie("f").map((f) => `not (${f})`),
  ),
})).f;
const filterArb: fc.Arbitrary<string> = fc.letrec<{ f: string }>((tie) => ({
  f: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    stringLeaf,
    boolLeaf,
    presentLeaf,
    elementFilter.map((f) => `emails[${f}]`),
    fc.tuple(tie("f"), fc.constantFrom("and", "or", "AND", "Or"), tie("f")).map(([l, o, r]) => `${l} ${o} ${r}`),
    tie("f").map((f) => `(${f})`),
    tie("f").map((f) => `not (${f})`),
  ),
})).f;

/**
 * Where scim2-parse-filter departs from RFC 7644, the oracle is brought to the RFC (never our SQL
 * to the oracle):
 * - it compares strings case-sensitively; RFC 7643 says caseExact false for all but id and
 *   externalId here, so the oracle sees lowercased data and values (except externalId's);
 * - `ne` on an absent attribute is false there; "not identical" holds for an absent attribute (a
 *   multi-valued one: some present value differs, or none is present);
 * - `pr` is true there for null and ""; RFC 7644: "has a non-empty value";
 * - a value filter on an empty list tested the list itself as one element;
 * - a path through the core URN, and a bare multi-valued attribute meaning its `value` (RFC 7644
 *   §3.4.2.2, `emails co …`), are not understood there: rewritten before it evaluates.
 */
class RfcTester extends Tester {
  override test(r: unknown, f: OracleFilter): boolean {
    if (f.op === "[]") {
      // There, an empty list reaches the inner filter as one value (so `emails[primary ne false]`
      // matched `emails: []`); a value filter ranges over the elements.
      const inner = f.valFilter;
      return this.attrTest(this.attrPath(f.attrPath), r, (s: unknown) =>
        Array.isArray(s) ? s.some((e) => this.test(e, inner)) : this.test(s, inner),
      );
    }
    if (f.op === "ne") {
      const path = this.attrPath(f.attrPath);
      const present = this.attrTest(path, r, (s: unknown) => s !== undefined && s !== null);
      return !present || this.attrTest(path, r, (s: unknown) => s !== f.compValue);
    }
    return super.test(r, f);
  }
  override pr(r: unknown): boolean {
    if (r === undefined || r === null || r === "") return false;
    if (Array.isArray(r)) return r.length > 0;
    return typeof r !== "object" || Object.keys(r).length > 0;
  }
}

const MULTI = ["emails", "phonenumbers"];
function normalise(f: OracleFilter, inElement = false): OracleFilter {
  switch (f.op) {
    case "and":
    case "or":
      return { ...f, filters: f.filters.map((g) => normalise(g, inElement)) };
    case "not":
      return { ...f, filter: normalise(f.filter, inElement) };
    case "[]":
      return { ...f, valFilter: normalise(f.valFilter, true) };
    default: {
      let attrPath = f.attrPath.toLowerCase().startsWith(`${CORE.toLowerCase()}:`) ? f.attrPath.slice(CORE.length + 1) : f.attrPath;
      if (!inElement && f.op !== "pr" && MULTI.includes(attrPath.toLowerCase())) attrPath = `${attrPath}.value`;
      const exact = !inElement && attrPath.toLowerCase() === "externalid";
      return "compValue" in f && typeof f.compValue === "string" && !exact
        ? { ...f, attrPath, compValue: f.compValue.toLowerCase() }
        : { ...f, attrPath };
    }
  }
}

function lowerStrings(value: unknown, key = ""): unknown {
  if (typeof value === "string") return key === "externalId" || key === "id" ? value : value.toLowerCase();
  if (Array.isArray(value)) return value.map((item) => lowerStrings(item));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, lowerStrings(v, k)]));
  return value;
}

describe("property: our SQL matches what scim2-parse-filter matches (RFC-normalised)", () => {
  test("generated users × generated filters", { timeout: 600_000 }, async () => {
    const tester = new RfcTester();
    let compared = 0;
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(userArb, { minLength: 1, maxLength: 8 }),
        fc.array(filterArb, { minLength: 5, maxLength: 5 }),
        async (users, filters) => {
          const directory = await newDirectory(sql, tenantId);
          const seeds = users.map(toSeed);
          const ids = await insertUsers(sql, directory, seeds, tenantId);
          const resources = seeds.map((s, i) => lowerStrings({ ...s.resource, id: ids[i] }) as Json);
          for (const text of filters) {
            const ours = await matching(sql, "User", directory, text);
            const predicate = (r: Json) => tester.test(r, normalise(oracleParse(text)));
            const expected = ids.filter((_, i) => predicate(resources[i]!)).sort();
            expect(ours, text).toEqual(expected);
            compared++;
            if (expected.length > 0 && expected.length < ids.length) nonEmpty++;
          }
          await sql.query("DELETE FROM directories WHERE id = $1", [directory]);
        },
      ),
      { numRuns: Number(process.env.SCIM_PROPERTY_RUNS ?? 150) },
    );
    // The generators must make filters that split populations, or the comparison proves little.
    expect(nonEmpty).toBeGreaterThan(compared / 5);
  });
});

describe("property: a PATCH path's value filter selects what the SQL filter does", () => {
  test("emails[…] in memory (filter-match.ts) and in SQL agree", { timeout: 300_000 }, async () => {
    const subAttributes = SCIM_SCHEMAS[0]!.attributes.find((attribute) => attribute.name === "emails")!.subAttributes;
    await fc.assert(
      fc.asyncProperty(
        fc.array(userArb, { minLength: 1, maxLength: 8 }),
        fc.array(elementFilter, { minLength: 5, maxLength: 5 }),
        async (users, filters) => {
          const directory = await newDirectory(sql, tenantId);
          const seeds = users.map(toSeed);
          const ids = await insertUsers(sql, directory, seeds, tenantId);
          for (const inner of filters) {
            const parsed = parseFilter(`emails[${inner}]`);
            if (parsed.op !== "[]") throw new Error("a value filter");
            const inMemory = ids
              .filter((_, i) => {
                const emails = seeds[i]!.resource.emails;
                return Array.isArray(emails) && emails.some((email) => matchesFilter(email, parsed.filter, subAttributes));
              })
              .sort();
            expect(await matching(sql, "User", directory, `emails[${inner}]`), inner).toEqual(inMemory);
          }
          await sql.query("DELETE FROM directories WHERE id = $1", [directory]);
        },
      ),
      { numRuns: Number(process.env.SCIM_PROPERTY_RUNS ?? 150) / 3 },
    );
  });
});
