/** The SCIM filter parser: RFC 7644 §3.4.2.2's examples, precedence, literals, and bad filters. */
import { describe, expect, test } from "vitest";
import { parseFilter, parsePatchPath, type Filter } from "../../server/directories/scim/filter.ts";
import { filterToSql } from "../../server/directories/scim/filter-sql.ts";

const path = (attr: string, sub: string | null = null, urn: string | null = null) => ({ urn, attr, sub });
const eq = (attr: string, value: string | number | boolean | null, sub: string | null = null): Filter => ({
  op: "eq",
  path: path(attr, sub),
  value,
});

/** RFC 7644 §3.4.2.2, the list of example filters. */
const RFC_EXAMPLES = [
  'userName eq "bjensen"',
  `name.familyName co "O'Malley"`,
  'userName sw "J"',
  'urn:ietf:params:scim:schemas:core:2.0:User:userName sw "J"',
  "title pr",
  'meta.lastModified gt "2011-05-13T04:42:34Z"',
  'meta.lastModified ge "2011-05-13T04:42:34Z"',
  'meta.lastModified lt "2011-05-13T04:42:34Z"',
  'meta.lastModified le "2011-05-13T04:42:34Z"',
  'title pr and userType eq "Employee"',
  'title pr or userType eq "Intern"',
  'schemas eq "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"',
  'userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")',
  'userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")',
  'userType eq "Employee" and (emails.type eq "work")',
  'userType eq "Employee" and emails[type eq "work" and value co "@example.com"]',
  'emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]',
];

describe("RFC 7644 examples", () => {
  test.each(RFC_EXAMPLES)("%s parses and compiles to SQL", (text) => {
    const filter = parseFilter(text);
    const params: unknown[] = [];
    const sql = filterToSql("User", filter, params);
    // Values travel as parameters, never in the SQL text.
    for (const [, value] of text.matchAll(/"([^"]*)"/g)) {
      expect(params.join("\n")).toContain(value!.replace(/Z$/, "")); // dates travel as ISO 8601
      expect(sql).not.toContain(value);
    }
  });

  test("ASTs", () => {
    expect(parseFilter('userName eq "bjensen"')).toEqual(eq("userName", "bjensen"));
    expect(parseFilter('urn:ietf:params:scim:schemas:core:2.0:User:userName sw "J"')).toEqual({
      op: "sw",
      path: path("userName", null, "urn:ietf:params:scim:schemas:core:2.0:User"),
      value: "J",
    });
    expect(parseFilter('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value eq "m"')).toEqual({
      op: "eq",
      path: path("manager", "value", "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"),
      value: "m",
    });
    expect(parseFilter('userType eq "Employee" and emails[type eq "work" and value co "@example.com"]')).toEqual({
      op: "and",
      left: eq("userType", "Employee"),
      right: {
        op: "[]",
        path: path("emails"),
        filter: { op: "and", left: eq("type", "work"), right: { op: "co", path: path("value"), value: "@example.com" } },
      },
    });
  });
});

describe("grammar", () => {
  test("precedence: not > and > or; parentheses regroup", () => {
    expect(parseFilter("a pr or b pr and not (c pr)")).toEqual({
      op: "or",
      left: { op: "pr", path: path("a") },
      right: { op: "and", left: { op: "pr", path: path("b") }, right: { op: "not", filter: { op: "pr", path: path("c") } } },
    });
    expect(parseFilter("(a pr or b pr) and c pr")).toMatchObject({ op: "and", left: { op: "or" } });
    expect(parseFilter("a pr and b pr and c pr")).toMatchObject({ op: "and", left: { op: "and" } });
  });

  test("operators, logic words and literals in any case; attribute names as written", () => {
    expect(parseFilter('UserName EQ "x" AnD Active Eq TRUE oR title Pr')).toEqual({
      op: "or",
      left: { op: "and", left: eq("UserName", "x"), right: eq("Active", true) },
      right: { op: "pr", path: path("title") },
    });
    expect(parseFilter("NOT (a eq Null)")).toEqual({ op: "not", filter: eq("a", null) });
  });

  test("literals: JSON strings with escapes, numbers, booleans, null", () => {
    expect(parseFilter(String.raw`a eq "q\"uote \\ back \u00e9 \n"`)).toEqual(eq("a", 'q"uote \\ back é \n'));
    expect(parseFilter("a gt -1.5e3")).toEqual({ op: "gt", path: path("a"), value: -1500 });
    expect(parseFilter("a eq 0")).toEqual(eq("a", 0));
    expect(parseFilter("a eq false")).toEqual(eq("a", false));
    expect(parseFilter('a eq ""')).toEqual(eq("a", ""));
  });

  test("whitespace is free around tokens; $ref is a name", () => {
    expect(parseFilter('  ( members.$ref  co "Users" )  ')).toEqual({ op: "co", path: path("members", "$ref"), value: "Users" });
    expect(parseFilter('emails[ type eq "work" ]')).toEqual({ op: "[]", path: path("emails"), filter: eq("type", "work") });
  });

  test('attr[filter].sub op value reads as attr[filter and sub op value] (the issue\'s emails[type eq "work"].value)', () => {
    expect(parseFilter('emails[type eq "work"].value ew "@x.com"')).toEqual({
      op: "[]",
      path: path("emails"),
      filter: { op: "and", left: eq("type", "work"), right: { op: "ew", path: path("value"), value: "@x.com" } },
    });
  });
});

describe("bad filters are 400 invalidFilter, naming where", () => {
  test.each([
    ["", "empty"],
    ["   ", "empty"],
    ["userName eq", "expected a value"],
    ['userName xx "a"', "unknown operator 'xx'"],
    ['(userName eq "a"', "expected ')'"],
    ['userName eq "a")', "unexpected text"],
    ['emails[type eq "work"', "expected ']'"],
    ['emails[type[value eq "a"]]', "cannot be nested"],
    ['userName eq "open', "unterminated string"],
    [String.raw`userName eq "\x"`, "invalid string"],
    ['a.b.c eq "x"', "not an attribute path"],
    ['1abc eq "x"', "not an attribute path"],
    ['not userName eq "a"', "unknown operator"],
    ["userName eq 'single'", "expected a value"],
    ['userName eq "a" and', "expected an attribute name"],
    ['userName pr "x"', "unexpected text"],
    ["userName eq tru", "expected a value"],
    ["userName eq 01", "expected a value"],
    ['emails.value[type eq "work"]', "not a sub-attribute"],
    [`${"(".repeat(60)}a pr${")".repeat(60)}`, "too deeply nested"],
    [Array.from({ length: 201 }, () => "a pr").join(" or "), "more than 200 comparisons"],
  ])("%j → %s", (text, problem) => {
    let error: unknown;
    try {
      parseFilter(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ status: 400, scimType: "invalidFilter" });
    expect((error as Error).message).toContain(problem);
    expect((error as Error).message).toMatch(/at (position \d+|the end)/);
  });
});

describe("PATCH paths", () => {
  test("attribute, sub-attribute, URN, value filter with and without a sub-attribute", () => {
    expect(parsePatchPath("name.givenName")).toEqual({ path: path("name", "givenName"), filter: null, sub: null });
    expect(parsePatchPath('emails[type eq "work"].value')).toEqual({ path: path("emails"), filter: eq("type", "work"), sub: "value" });
    expect(parsePatchPath('members[value eq "2819c223-7f76-453a-919d-413861904646"]')).toEqual({
      path: path("members"),
      filter: eq("value", "2819c223-7f76-453a-919d-413861904646"),
      sub: null,
    });
    expect(parsePatchPath("urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager")).toEqual({
      path: path("manager", null, "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"),
      filter: null,
      sub: null,
    });
  });

  test.each(['emails[type eq "work"', "emails[].value", "name..givenName", 'emails[type eq "work"] extra'])("%j is invalidPath", (text) => {
    expect(() => parsePatchPath(text)).toThrow(expect.objectContaining({ status: 400, scimType: "invalidPath" }));
  });
});
