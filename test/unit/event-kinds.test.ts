/** The webhook dialog's event picker names every group of event kinds in words, not by its prefix. */
import { expect, test } from "vitest";
import { EVENT_TYPES } from "../../server/events/types.ts";
import { EVENT_GROUPS, GROUP_LABELS } from "../../components/webhooks/event-kinds.ts";

test("every prefix of the event kinds has a label, and every kind is in a group", () => {
  const prefixes = [...new Set(EVENT_TYPES.map((kind) => kind.split(".")[0]!))];
  expect(prefixes.filter((prefix) => !GROUP_LABELS[prefix])).toEqual([]);
  expect(EVENT_GROUPS.flatMap((group) => group.kinds).sort()).toEqual([...EVENT_TYPES].sort());
});
