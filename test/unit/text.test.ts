import { describe, expect, test } from "vitest";
import { decodeUtf8, findBadText, text } from "../../server/contract/fields.ts";

describe("text the database stores as sent", () => {
  test("text() refuses NUL and unpaired surrogates, and keeps emoji (paired surrogates)", () => {
    const schema = text();
    expect(schema.safeParse("💥 Ünïcødé").success).toBe(true);
    for (const bad of ["a\u0000b", "x\ud800y", "\udc00", "💥\u0000"]) {
      const result = schema.safeParse(bad);
      expect(result.success, JSON.stringify(bad)).toBe(false);
    }
  });

  test("findBadText names the first bad string anywhere in an input, keys included", () => {
    expect(findBadText({ name: "ok", domains: ["a.com", "b\u0000.com"] })).toMatchObject({ path: "domains.1" });
    expect(findBadText({ details: { nested: { "k\ud800": 1 } } })).toMatchObject({ path: "details.nested" });
    expect(findBadText({ name: "ok", n: 1, list: [true, null] })).toBeNull();
  });

  test("decodeUtf8 is strict: stray bytes and encoded surrogates are not text", () => {
    expect(decodeUtf8(Buffer.from("é💥"))).toBe("é💥");
    expect(decodeUtf8(Uint8Array.from([0xff]))).toBeNull();
    expect(decodeUtf8(Uint8Array.from([0xed, 0xa0, 0x80]))).toBeNull();
    expect(decodeUtf8(Uint8Array.from([0xc0, 0xaf]))).toBeNull();
  });
});
