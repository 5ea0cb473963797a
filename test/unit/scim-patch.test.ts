/**
 * SCIM PATCH as Okta and Entra ID send it (the request bodies below are their shapes), and the
 * errors RFC 7644 §3.5.2 asks for.
 */
import { describe, expect, test } from "vitest";
import { applyPatch, parsePatchRequest, PATCH_OP_SCHEMA, type PatchOperation } from "../../server/directories/scim/patch.ts";
import { ENTERPRISE_USER } from "../../server/directories/scim/schema.ts";

const body = (...Operations: unknown[]) => ({ schemas: [PATCH_OP_SCHEMA], Operations });
const patchUser = (resource: Record<string, unknown>, ...operations: unknown[]) =>
  applyPatch("User", resource, parsePatchRequest(body(...operations)));
const patchGroup = (resource: Record<string, unknown>, ...operations: unknown[]) =>
  applyPatch("Group", resource, parsePatchRequest(body(...operations)));
const scimError = (scimType: string) => expect.objectContaining({ status: 400, scimType });

const bjensen = () => ({
  userName: "bjensen@example.com",
  active: true,
  name: { givenName: "Barbara", familyName: "Jensen" },
  emails: [
    { value: "bjensen@example.com", type: "work", primary: true },
    { value: "babs@jensen.org", type: "home" },
  ],
  [ENTERPRISE_USER]: { department: "Tours", manager: { value: "m-1", displayName: "Boss" } },
});

describe("parsePatchRequest", () => {
  test("ops in any case become lowercase; path and value kept", () => {
    expect(parsePatchRequest(body({ op: "Replace", path: "active", value: "False" }, { op: "REMOVE", path: "title" }))).toEqual([
      { op: "replace", path: "active", value: "False" },
      { op: "remove", path: "title" },
    ]);
  });

  test.each([
    [{ Operations: [{ op: "add", value: {} }] }],
    [{ schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"], Operations: [{ op: "add", value: {} }] }],
    [{ schemas: [PATCH_OP_SCHEMA], Operations: [] }],
    [{ schemas: [PATCH_OP_SCHEMA] }],
    [body({ op: "move", path: "title" })],
    [body({ op: "add", path: "title" })],
    [body({ op: "add", path: 3, value: "x" })],
    [body("add")],
    ["not an object"],
  ])("invalidSyntax: %j", (input) => {
    expect(() => parsePatchRequest(input)).toThrow(scimError("invalidSyntax"));
  });
});

describe("Okta", () => {
  test("deactivate: path-less replace {active:false}", () => {
    expect(patchUser(bjensen(), { op: "replace", value: { active: false } })).toMatchObject({
      active: false,
      userName: "bjensen@example.com",
    });
  });

  test("group rename: path-less replace carrying the group's id", () => {
    const group = { displayName: "Eng", members: [{ value: "u1" }] };
    expect(patchGroup(group, { op: "replace", value: { id: "abf4dd94-a4c0-4f67-89c9-76b03340cb9b", displayName: "Engineering" } })).toEqual(
      {
        displayName: "Engineering",
        members: [{ value: "u1" }],
      },
    );
  });

  test("remove a member by filter; add members with display", () => {
    const group = { displayName: "Eng", members: [{ value: "u1", display: "A" }, { value: "u2" }] };
    expect(patchGroup(group, { op: "remove", path: 'members[value eq "u1"]' })).toEqual({ displayName: "Eng", members: [{ value: "u2" }] });
    expect(patchGroup(group, { op: "add", path: "members", value: [{ value: "u3", display: "C" }] }).members).toEqual([
      { value: "u1", display: "A" },
      { value: "u2" },
      { value: "u3", display: "C" },
    ]);
  });

  test("a password is never kept", () => {
    expect(patchUser(bjensen(), { op: "replace", value: { password: "hunter2" } })).not.toHaveProperty("password");
  });
});

describe("Entra ID", () => {
  test('"Replace" with "False"/"True" strings for active', () => {
    expect(patchUser(bjensen(), { op: "Replace", path: "active", value: "False" }).active).toBe(false);
    expect(patchUser({ ...bjensen(), active: false }, { op: "Replace", path: "active", value: "True" }).active).toBe(true);
  });

  test('emails[type eq "work"].value: replaced where it exists, made where it does not', () => {
    const replaced = patchUser(bjensen(), { op: "Replace", path: 'emails[type eq "work"].value', value: "barbara@example.com" });
    expect(replaced.emails).toEqual([
      { value: "barbara@example.com", type: "work", primary: true },
      { value: "babs@jensen.org", type: "home" },
    ]);
    const made = patchUser({ userName: "x" }, { op: "Add", path: 'emails[type eq "work"].value', value: "x@example.com" });
    expect(made.emails).toEqual([{ type: "work", value: "x@example.com" }]);
  });

  test("path-less Add whose keys are paths, sub-attributes and the enterprise extension", () => {
    const result = patchUser(bjensen(), {
      op: "Add",
      value: { "name.givenName": "Babs", [`${ENTERPRISE_USER}:department`]: "Operations", title: "Guide", ACTIVE: "False" },
    });
    expect(result).toMatchObject({ name: { givenName: "Babs", familyName: "Jensen" }, title: "Guide", active: false });
    expect(result[ENTERPRISE_USER]).toEqual({ department: "Operations", manager: { value: "m-1", displayName: "Boss" } });
  });

  test("enterprise extension paths: department, and manager as an id or as an object", () => {
    const department = patchUser(bjensen(), { op: "Replace", path: `${ENTERPRISE_USER}:department`, value: "Sales" });
    expect(department[ENTERPRISE_USER]).toMatchObject({ department: "Sales" });
    const byId = patchUser({ userName: "x" }, { op: "Add", path: `${ENTERPRISE_USER}:manager`, value: "m-2" });
    expect(byId[ENTERPRISE_USER]).toEqual({ manager: { value: "m-2" } });
    const byObject = patchUser(bjensen(), { op: "replace", path: `${ENTERPRISE_USER}:manager`, value: { value: "m-3" } });
    expect(byObject[ENTERPRISE_USER]).toEqual({ department: "Tours", manager: { value: "m-3", displayName: "Boss" } });
    const removed = patchUser(bjensen(), { op: "Remove", path: `${ENTERPRISE_USER}:manager` });
    expect(removed[ENTERPRISE_USER]).toEqual({ department: "Tours" });
    const whole = patchUser({ userName: "x" }, { op: "Add", path: ENTERPRISE_USER, value: { employeeNumber: "42" } });
    expect(whole[ENTERPRISE_USER]).toEqual({ employeeNumber: "42" });
  });

  test("members: Add a list, Remove a list of values (members carrying a display)", () => {
    const group = { displayName: "Eng", members: [{ value: "u1", display: "A" }] };
    const added = patchGroup(group, { op: "Add", path: "members", value: [{ value: "u2" }] });
    expect(added.members).toEqual([{ value: "u1", display: "A" }, { value: "u2" }]);
    const removed = patchGroup(added, { op: "remove", path: "members", value: [{ value: "u1" }] });
    expect(removed.members).toEqual([{ value: "u2" }]);
    expect(patchGroup(removed, { op: "Remove", path: "members", value: [{ value: "u2" }] })).toEqual({ displayName: "Eng" });
  });

  test("adding 1,000 members in one op (the cap), duplicates and existing ones counted once", () => {
    const ids = Array.from({ length: 999 }, (_, i) => ({ value: `u${i}` }));
    const result = patchGroup(
      { displayName: "All", members: [{ value: "u0", display: "Zero" }] },
      { op: "add", path: "members", value: [...ids, { value: "U5" }] },
    );
    expect(result.members).toHaveLength(999);
    expect((result.members as unknown[])[0]).toEqual({ value: "u0", display: "Zero" });
  });
});

describe("RFC 7644 rules", () => {
  test("the input is not mutated", () => {
    const input = bjensen();
    const copy = structuredClone(input);
    patchUser(input, { op: "replace", path: 'emails[type eq "home"].value', value: "x" }, { op: "remove", path: "name" });
    expect(input).toEqual(copy);
  });

  test("a value made primary makes the others not primary", () => {
    const result = patchUser(bjensen(), {
      op: "add",
      path: "emails",
      value: [{ value: "new@example.com", type: "other", primary: "True" }],
    });
    expect(result.emails).toEqual([
      { value: "bjensen@example.com", type: "work", primary: false },
      { value: "babs@jensen.org", type: "home" },
      { value: "new@example.com", type: "other", primary: true },
    ]);
  });

  test("names are matched case-insensitively and stored canonical", () => {
    expect(
      patchUser({ userName: "x" }, { op: "add", path: "NAME.GIVENNAME", value: "A" }, { op: "add", path: "DisplayName", value: "D" }),
    ).toEqual({
      userName: "x",
      name: { givenName: "A" },
      displayName: "D",
    });
  });

  test("remove through a filter: matching values go, the attribute goes when none is left", () => {
    expect(patchUser(bjensen(), { op: "remove", path: 'emails[type eq "work" or value ew ".org"]' })).not.toHaveProperty("emails");
    expect(patchUser(bjensen(), { op: "remove", path: 'emails[type eq "home"].type' }).emails).toEqual([
      { value: "bjensen@example.com", type: "work", primary: true },
      { value: "babs@jensen.org" },
    ]);
  });

  test("replace of a complex attribute merges its sub-attributes; of a multi-valued one replaces the list", () => {
    const result = patchUser(
      bjensen(),
      { op: "replace", path: "name", value: { givenName: "B" } },
      { op: "replace", path: "emails", value: [{ value: "a@b" }] },
    );
    expect(result).toMatchObject({ name: { givenName: "B", familyName: "Jensen" }, emails: [{ value: "a@b" }] });
  });

  test.each([
    ["mutability", { op: "replace", path: "id", value: "x" }],
    ["mutability", { op: "replace", path: "meta.created", value: "2020-01-01T00:00:00Z" }],
    ["mutability", { op: "add", path: "groups", value: [{ value: "g" }] }],
    ["mutability", { op: "remove", path: "userName" }],
    ["noTarget", { op: "remove" }],
    ["noTarget", { op: "replace", path: 'emails[type ne "work" and type ne "home"].value', value: "x" }],
    ["invalidPath", { op: "replace", path: "emails[type eq ].value", value: "x" }],
    ["invalidPath", { op: "replace", path: "userName.first", value: "x" }],
    ["invalidPath", { op: "replace", path: 'name[givenName eq "B"]', value: {} }],
    ["invalidValue", { op: "replace", path: "active", value: "maybe" }],
    ["invalidValue", { op: "replace", path: "emails", value: [{ value: 3 }] }],
    ["invalidValue", { op: "add", value: "not an object" }],
  ])("%s: %j", (scimType, operation) => {
    expect(() => applyPatch("User", bjensen(), [operation as PatchOperation])).toThrow(scimError(scimType));
  });

  test("a Group's displayName cannot be removed", () => {
    expect(() => patchGroup({ displayName: "x" }, { op: "remove", path: "displayName" })).toThrow(scimError("mutability"));
  });
});

describe("caps (limits.ts) and values matched by key", () => {
  const members = (n: number, prefix = "u") => Array.from({ length: n }, (_, i) => ({ value: `${prefix}${i}` }));

  test("101 operations, or 1,001 values in one: tooMany naming the cap", () => {
    const replace = { op: "replace", path: "displayName", value: "x" };
    expect(() => parsePatchRequest(body(...Array.from({ length: 101 }, () => replace)))).toThrow(scimError("tooMany"));
    expect(parsePatchRequest(body(...Array.from({ length: 100 }, () => replace)))).toHaveLength(100);
    expect(() => parsePatchRequest(body({ op: "add", path: "members", value: members(1001) }))).toThrow(
      expect.objectContaining({ scimType: "tooMany", detail: expect.stringContaining("at most 1000") }),
    );
    // Lists inside a path-less value count too.
    expect(() => parsePatchRequest(body({ op: "replace", value: { emails: members(600), phoneNumbers: members(401) } }))).toThrow(
      scimError("tooMany"),
    );
  });

  test("a User's list past 100 values, by an operation or an unknown attribute: tooMany", () => {
    const emails = Array.from({ length: 100 }, (_, i) => ({ value: `e${i}@example.com` }));
    expect(patchUser({ userName: "x" }, { op: "add", path: "emails", value: emails }).emails).toHaveLength(100);
    expect(() => patchUser({ userName: "x", emails }, { op: "add", path: "emails", value: [{ value: "one@more" }] })).toThrow(
      expect.objectContaining({ scimType: "tooMany", detail: expect.stringContaining("emails") }),
    );
    expect(() => patchUser({ userName: "x" }, { op: "add", path: "urn:example:custom:tags", value: members(101) })).toThrow(
      scimError("tooMany"),
    );
  });

  test("members: a group of any size; removed by list, by id filter and by other filters; a re-added member goes last", () => {
    const group = { displayName: "Big", members: members(5000) };
    const result = patchGroup(
      group,
      { op: "add", path: "members", value: members(1000, "n") },
      { op: "remove", path: "members", value: [{ value: "U1" }, { value: "n0" }, { value: "absent" }] },
      { op: "remove", path: 'members[value eq "U2"]' },
      { op: "remove", path: 'members[value sw "u49"]' },
      { op: "add", path: "members", value: [{ value: "u3" }, { value: "u1" }] },
    );
    const ids = (result.members as { value: string }[]).map((m) => m.value);
    // u1 and n0 by list, u2 by id, u49 u490…u499 u4900…u4999 by filter; u1 back.
    expect(ids).toHaveLength(5000 + 1000 - 2 - 1 - 111 + 1);
    expect(ids.slice(0, 3)).toEqual(["u0", "u3", "u4"]);
    expect(ids.at(-1)).toBe("u1");
    expect(ids).not.toContain("u2");
    expect(ids).not.toContain("u4999");
    expect(group.members).toHaveLength(5000);
  });

  test("a member whose id a filter changes is found by its new id", () => {
    const result = patchGroup(
      { displayName: "Eng", members: [{ value: "u1" }, { value: "u2" }] },
      { op: "replace", path: 'members[value eq "u1"].value', value: "u9" },
      { op: "remove", path: "members", value: [{ value: "u9" }] },
    );
    expect(result.members).toEqual([{ value: "u2" }]);
  });

  test("removal values naming sub-attributes match on those; others must equal a value whole", () => {
    const user = {
      userName: "x",
      emails: [
        { value: "a@x", type: "work", primary: true },
        { value: "b@x", type: "home" },
        { value: "c@x", type: "work", note: "kept as sent" },
      ],
    };
    const byType = patchUser(user, { op: "remove", path: "emails", value: [{ type: "work" }] });
    expect(byType.emails).toEqual([{ value: "b@x", type: "home" }]);
    const unknownKey = patchUser(user, { op: "remove", path: "emails", value: [{ note: "kept as sent" }] });
    expect(unknownKey.emails).toHaveLength(3);
    const whole = patchUser(user, { op: "remove", path: "emails", value: [{ value: "c@x", type: "work", note: "kept as sent" }] });
    expect((whole.emails as { value: string }[]).map((e) => e.value)).toEqual(["a@x", "b@x"]);
  });
});
