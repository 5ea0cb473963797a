import { expect, test } from "vitest";
import { hashPassword, verifyPassword } from "../../server/auth/password.ts";

test("passwords are hashed with scrypt, salted, and verified", async () => {
  const a = await hashPassword("correct horse battery staple");
  const b = await hashPassword("correct horse battery staple");
  expect(a).toMatch(/^scrypt\$32768\$8\$1\$/);
  expect(a).not.toBe(b);
  expect(a).not.toContain("correct horse");
  expect(await verifyPassword("correct horse battery staple", a)).toBe(true);
  expect(await verifyPassword("correct horse battery stapler", a)).toBe(false);
  expect(await verifyPassword("anything", null)).toBe(false);
  expect(await verifyPassword("anything", "garbage")).toBe(false);
});
