/** jsonInTurns writes exactly what JSON.stringify writes, pausing between turns on large values. */
import { expect, test } from "vitest";
import fc from "fast-check";
import { jsonInTurns } from "../../server/contract/json-in-turns.ts";

test("any JSON value: the same text as JSON.stringify", async () => {
  await fc.assert(
    fc.asyncProperty(fc.jsonValue(), async (value) => {
      expect(await jsonInTurns(value)).toBe(JSON.stringify(value));
    }),
  );
});

test("undefined, functions, toJSON and dates as JSON.stringify treats them", async () => {
  const value = {
    a: undefined,
    b: () => 1,
    c: [undefined, () => 1, 1],
    d: new Date("2026-12-07T00:00:00Z"),
    e: { toJSON: () => ({ nested: [1, "two"] }) },
    f: 'quote " and \u2028',
  };
  expect(await jsonInTurns(value)).toBe(JSON.stringify(value));
});

test("a group of 50,000 members is written whole, and the event loop turns while it is", async () => {
  const members = Array.from({ length: 50_000 }, (_, i) => ({ value: `id-${i}`, display: `Person ${i}`, $ref: `https://x/Users/id-${i}` }));
  let turns = 0;
  const ticker = setInterval(() => turns++, 0);
  const text = await jsonInTurns({ displayName: "Everyone", members });
  clearInterval(ticker);
  expect(text).toBe(JSON.stringify({ displayName: "Everyone", members }));
  expect(turns).toBeGreaterThan(0);
});
