import { describe, expect, test } from "vitest";
import { patchChanges, patchEvents } from "../../server/events/patch-events.ts";

const target = { type: "webhook", id: "0b6c7a52-4f3e-4b6c-9a52-3f3e4b6c9a52" };
const tenantId = "7d3c1b0a-1111-4222-8333-944455556666";

describe("patchChanges", () => {
  test("keeps only the fields given with a new value", () => {
    expect(
      patchChanges({
        url: { from: "https://a.example", to: "https://b.example" },
        description: { from: "same", to: "same" },
        name: { from: "kept", to: undefined },
        cleared: { from: "text", to: null },
      }),
    ).toEqual({ url: { from: "https://a.example", to: "https://b.example" }, cleared: { from: "text", to: null } });
  });

  test("lists compare as sets", () => {
    expect(patchChanges({ events: { from: ["a", "b"], to: ["b", "a"] } })).toEqual({});
    expect(patchChanges({ events: { from: ["a", "b"], to: ["a"] } })).toEqual({ events: { from: ["a", "b"], to: ["a"] } });
  });
});

describe("patchEvents", () => {
  test("nothing changed, nothing recorded", () => {
    expect(patchEvents("webhook", { tenantId, target, label: { url: "u" }, changes: {}, enabled: { from: true, to: true } })).toEqual([]);
    expect(patchEvents("webhook", { tenantId, target, label: { url: "u" }, changes: {}, enabled: { from: true, to: undefined } })).toEqual(
      [],
    );
  });

  test("a field change and a flip are two events, .updated first, both labelled", () => {
    const changes = { name: { from: "Old", to: "New" } };
    expect(patchEvents("sso_provider", { tenantId, target, label: { name: "New" }, changes, enabled: { from: true, to: false } })).toEqual([
      { type: "sso_provider.updated", tenantId, target, details: { name: "New", changes } },
      { type: "sso_provider.disabled", tenantId, target, details: { name: "New", changes: { enabled: { from: true, to: false } } } },
    ]);
  });

  test("enabling alone is one .enabled event", () => {
    expect(patchEvents("webhook", { tenantId, target, label: { url: "u" }, changes: {}, enabled: { from: false, to: true } })).toEqual([
      { type: "webhook.enabled", tenantId, target, details: { url: "u", changes: { enabled: { from: false, to: true } } } },
    ]);
  });
});
