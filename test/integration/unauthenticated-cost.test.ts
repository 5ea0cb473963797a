/**
 * Anonymous callers cannot make the server hash passwords at will: a reset confirmation and an
 * invitation's acceptance look their link up before they run scrypt (~50–100 ms of CPU each), so bogus links cost a lookup. When it
 * hashed first, 40 bogus requests took a normal sign-in from 0.23 s to 3.8 s. Measured in this
 * process's CPU time (scrypt runs on its thread pool), not wall time. Issue 21, finding 8.
 *
 * Runs in a process of its own (vitest.config.ts): what it counts is the whole process's CPU, which
 * in a shared worker would include collecting earlier files' garbage.
 */
import { expect, test } from "vitest";
import { randomBytes } from "node:crypto";
import { database } from "../../server/db/client.ts";
import { completePasswordReset } from "../../server/account/password-reset.ts";
import { acceptInvitation } from "../../server/invitations/accept.ts";
import { hashPassword } from "../../server/auth/password.ts";
import { AppError } from "../../server/errors.ts";

const request = { requestId: "t", ip: "198.51.100.77", userAgent: "vitest/1.0" };
const BOGUS = 10;

/** CPU milliseconds this process spends in `fn`. */
async function cpuMs(fn: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

test("bogus reset links are refused without hashing the password", async () => {
  const db = await database();
  await hashPassword("warm-up"); // the first hash also loads what scrypt needs
  await completePasswordReset(db, request, { token: "warm-up", password: "a-new-password" }).catch(() => undefined);
  const oneHash = await cpuMs(() => hashPassword("a-new-password"));
  const bogus = await cpuMs(async () => {
    for (let i = 0; i < BOGUS; i++) {
      const refused = await completePasswordReset(db, request, {
        token: randomBytes(24).toString("base64url"),
        password: "a-new-password",
      }).catch((error: AppError) => error.code);
      expect(refused).toBe("not_found");
    }
  });
  // Hashing each would cost at least ten hashes (measured 16 before the fix); ten lookups cost about two.
  expect(bogus).toBeLessThan(5 * oneHash);
});

test("bogus invitation links are refused without hashing the password", async () => {
  const db = await database();
  const caller = { principal: null, request };
  const accept = (token: string) => acceptInvitation(db, caller, { token, password: "a-new-password", name: "Someone" });
  await hashPassword("warm-up");
  await accept("warm-up").catch(() => undefined);
  const oneHash = await cpuMs(() => hashPassword("a-new-password"));
  const bogus = await cpuMs(async () => {
    for (let i = 0; i < BOGUS; i++)
      expect(await accept(randomBytes(24).toString("base64url")).catch((error: AppError) => error.code)).toBe("not_found");
  });
  expect(bogus).toBeLessThan(5 * oneHash);
});
