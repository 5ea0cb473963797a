import { describe, expect, it } from "vitest";
import { EVENT_CATALOG, exampleDataOf, jsonSchemaOf } from "../../server/events/catalog/index.ts";
import { catalogProblems } from "../../server/events/validate.ts";
import { EVENT_TYPES, TENANT_EVENT_TYPES } from "../../server/events/types.ts";

describe("the event catalog", () => {
  it("describes every kind the control plane emits, and no other", () => {
    expect(Object.keys(EVENT_CATALOG).sort()).toEqual([...EVENT_TYPES].sort());
    for (const kind of EVENT_TYPES) expect(EVENT_CATALOG[kind].description.length, kind).toBeGreaterThan(10);
  });

  it("publishes a JSON Schema 2020-12 of each kind's data", () => {
    for (const kind of EVENT_TYPES) {
      const schema = jsonSchemaOf(kind);
      expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(schema.required).toEqual(["actor", "target", "details"]);
    }
  });

  it("has an example of every kind that its own schema accepts", () => {
    for (const kind of EVENT_TYPES) expect(catalogProblems(kind, exampleDataOf(kind)), kind).toEqual([]);
  });

  it("refuses data that breaks a kind's schema, naming where", () => {
    const data = exampleDataOf("invitation.created");
    expect(catalogProblems("invitation.created", { ...data, details: { ...(data.details as object), expires_at: "tomorrow" } })).toEqual([
      expect.stringContaining("/details/expires_at"),
    ]);
    expect(catalogProblems("user.login", { ...exampleDataOf("user.login"), details: {} })).toEqual([expect.stringContaining("method")]);
    expect(catalogProblems("user.login", { actor: null, target: null, details: { method: "password" } })).not.toEqual([]);
  });

  it("lets an application's own kinds through (they are not in the catalog)", () => {
    expect(catalogProblems("invoice.paid", { anything: true })).toEqual([]);
    expect(TENANT_EVENT_TYPES.length).toBeLessThan(EVENT_TYPES.length);
  });
});
