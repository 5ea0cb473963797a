/** The SCIM schemas as data (GET /Schemas) and the stored form of a resource. */
import { describe, expect, test } from "vitest";
import { canonicalizeResource, ENTERPRISE_USER, GROUP_SCHEMA, SCIM_SCHEMAS, USER_SCHEMA } from "../../server/directories/scim/schema.ts";

describe("SCIM_SCHEMAS", () => {
  test("User, Group and EnterpriseUser, each attribute fully described (RFC 7643 §7)", () => {
    expect(SCIM_SCHEMAS.map((schema) => schema.id)).toEqual([USER_SCHEMA, GROUP_SCHEMA, ENTERPRISE_USER]);
    const walk = (attributes: (typeof SCIM_SCHEMAS)[number]["attributes"]): void => {
      for (const attribute of attributes) {
        expect(Object.keys(attribute)).toEqual(
          expect.arrayContaining([
            "name",
            "type",
            "multiValued",
            "description",
            "required",
            "caseExact",
            "mutability",
            "returned",
            "uniqueness",
          ]),
        );
        if (attribute.type === "complex") walk(attribute.subAttributes ?? []);
        else expect(attribute.subAttributes).toBeUndefined();
      }
    };
    for (const schema of SCIM_SCHEMAS) {
      expect(schema).toMatchObject({ schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"], meta: { resourceType: "Schema" } });
      walk(schema.attributes);
    }
    const user = SCIM_SCHEMAS[0]!.attributes;
    expect(user.find((a) => a.name === "userName")).toMatchObject({ required: true, caseExact: false, uniqueness: "server" });
    expect(user.find((a) => a.name === "groups")).toMatchObject({ multiValued: true, mutability: "readOnly" });
    // The common attributes (id, externalId, meta) are not part of a schema's representation.
    expect(user.map((a) => a.name)).not.toContain("id");
  });
});

describe("canonicalizeResource", () => {
  test("names in canonical case, booleans from strings, extension keyed by its URN, unknown kept", () => {
    const stored = canonicalizeResource("User", {
      schemas: [USER_SCHEMA, ENTERPRISE_USER],
      USERNAME: "bjensen",
      Name: { GIVENNAME: "Barbara", middle: "kept as given" },
      Active: "False",
      emails: [{ Value: "b@example.com", PRIMARY: "True", Type: "work" }],
      "urn:ietf:params:scim:schemas:extension:ENTERPRISE:2.0:user": { Department: "Tours", manager: { Value: "m-1" } },
      customThing: { Any: ["shape"] },
    });
    expect(stored).toEqual({
      schemas: [USER_SCHEMA, ENTERPRISE_USER],
      userName: "bjensen",
      name: { givenName: "Barbara", middle: "kept as given" },
      active: false,
      emails: [{ value: "b@example.com", primary: true, type: "work" }],
      [ENTERPRISE_USER]: { department: "Tours", manager: { value: "m-1" } },
      customThing: { Any: ["shape"] },
    });
  });

  test("id, meta, groups and password dropped; nulls are unassigned", () => {
    expect(
      canonicalizeResource("User", {
        id: "x",
        meta: { version: 'W/"1"' },
        userName: "u",
        groups: [{ value: "g" }],
        password: "secret",
        title: null,
      }),
    ).toEqual({ userName: "u" });
  });

  test("a Group keeps its members; attributes under the core URN are core attributes", () => {
    expect(canonicalizeResource("Group", { DisplayName: "Eng", Members: [{ Value: "u1", display: "A" }] })).toEqual({
      displayName: "Eng",
      members: [{ value: "u1", display: "A" }],
    });
    expect(canonicalizeResource("User", { [USER_SCHEMA]: { userName: "u", TITLE: "t" } })).toEqual({ userName: "u", title: "t" });
  });

  test("a __proto__ member is dropped, not made the prototype", () => {
    const stored = canonicalizeResource("User", JSON.parse('{"userName":"u","__proto__":{"admin":true},"name":{"__proto__":{"x":1}}}'));
    expect(stored).toEqual({ userName: "u", name: {} });
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect((stored as { admin?: unknown }).admin).toBeUndefined();
  });

  test("a single object where a list is expected becomes a list", () => {
    expect(canonicalizeResource("User", { userName: "u", emails: { value: "a@b" } })).toEqual({
      userName: "u",
      emails: [{ value: "a@b" }],
    });
  });

  test.each([
    [{ userName: 3 }],
    [{ userName: "u", name: "Barbara" }],
    [{ userName: "u", active: "maybe" }],
    [{ userName: "u", emails: ["a@b"] }],
    [{ userName: "u", emails: [{ value: "a@b", primary: "yes" }] }],
    [{ userName: "u", [ENTERPRISE_USER]: "Tours" }],
    [{ userName: "u", [ENTERPRISE_USER]: { manager: 7 } }],
    [{ userName: "u", schemas: "urn" }],
  ])("wrong types of known attributes are invalidValue: %j", (input) => {
    expect(() => canonicalizeResource("User", input)).toThrow(expect.objectContaining({ status: 400, scimType: "invalidValue" }));
  });
});
