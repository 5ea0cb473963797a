/**
 * The webhook dialog's event picker names every group of event kinds in words, not by its prefix,
 * and offers only kinds that can fire in a tenant.
 */
import { expect, test } from "vitest";
import { TENANT_EVENT_TYPES } from "../../server/events/types.ts";
import { EVENT_GROUPS, GROUP_LABELS } from "../../components/webhooks/event-kinds.ts";

test("every prefix of the event kinds has a label, and every kind that fires in a tenant is in a group", () => {
  const prefixes = [...new Set(TENANT_EVENT_TYPES.map((kind) => kind.split(".")[0]!))];
  expect(prefixes.filter((prefix) => !GROUP_LABELS[prefix])).toEqual([]);
  expect(EVENT_GROUPS.flatMap((group) => group.kinds).sort()).toEqual([...TENANT_EVENT_TYPES].sort());
});

test("the picker offers no kind only the platform emits", () => {
  const offered = EVENT_GROUPS.flatMap((group) => group.kinds);
  expect(offered.filter((kind) => kind.startsWith("sso.application_"))).toEqual([]);
  expect(offered).toContain("sso.login_failed");
});
