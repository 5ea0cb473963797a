import { describe, expect, test } from "vitest";
import { decodeCursor, encodeCursor } from "../../server/db/keyset.ts";
import { AppError } from "../../server/errors.ts";

describe("cursors", () => {
  test("round-trip", () => {
    const cursor = { direction: "prev" as const, at: new Date("2026-01-31T12:00:00.123Z"), id: "0b6c7a52-4f3e-4b6c-9a52-3f3e4b6c9a52" };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  });

  test.each([
    "",
    "x",
    "bnVsbA",
    Buffer.from('["n","2026-01-01T00:00:00Z","not-a-uuid"]').toString("base64url"),
    Buffer.from('["z","2026-01-01T00:00:00Z","0b6c7a52-4f3e-4b6c-9a52-3f3e4b6c9a52"]').toString("base64url"),
  ])("%j is refused as a 400 naming cursor", (value) => {
    expect(() => decodeCursor(value)).toThrow(AppError);
    try {
      decodeCursor(value);
    } catch (error) {
      expect((error as AppError).status).toBe(400);
      expect((error as AppError).options.errors?.[0]?.path).toBe("cursor");
    }
  });
});
