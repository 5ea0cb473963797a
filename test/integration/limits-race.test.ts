/**
 * Sign-in, reset and password-check limits hold against parallel attempts: each attempt is counted
 * and recorded atomically before the password is checked (server/auth/limits.ts takeAttempt). When
 * the check came first and the record after, 25 parallel wrong passwords for one email were all
 * evaluated against a limit of 5, and a session holder could guess the password at will through
 * the password change.
 */
import { describe, expect, test } from "vitest";
import { database } from "../../server/db/client.ts";
import { signIn } from "../../server/account/login.ts";
import { requestPasswordReset } from "../../server/account/password-reset.ts";
import { changePassword } from "../../server/account/service.ts";
import { stepUp } from "../../server/auth/step-up.ts";
import { sessionPrincipalOf } from "../support/console-caller.ts";
import { AppError } from "../../server/errors.ts";
import { createUser, db } from "../support/fixtures.ts";

const PARALLEL = 25;
const from = (ip: string) => ({ requestId: "t", ip, userAgent: "vitest/1.0" });

async function sessionOf(userId: string) {
  const principal = await sessionPrincipalOf(userId);
  return { db: await database(), actor: { principal, request: from("203.0.113.40") } };
}

const codeOf = (result: PromiseSettledResult<unknown>) =>
  result.status === "fulfilled" ? "ok" : result.reason instanceof AppError ? result.reason.code : String(result.reason);

describe("limits under parallel attempts", () => {
  test("25 parallel wrong passwords for one email: 5 are checked, 20 refused", async () => {
    const user = await createUser({ password: "right-password" });
    const settled = await Promise.all(
      Array.from({ length: PARALLEL }, async (_, i) => signIn(await database(), from(`198.51.100.${i}`), user.email, `wrong-${i}`)),
    );
    const reasons = settled.map((r) => (r.ok ? "ok" : r.reason));
    expect(reasons.filter((r) => r === "invalid")).toHaveLength(5);
    expect(reasons.filter((r) => r === "rate_limited")).toHaveLength(PARALLEL - 5);
    const failures = await (await db()).auditEvent.findMany({ where: { eventType: "user.login_failed", actorId: user.id } });
    expect(failures.filter((e) => (e.details as { reason: string }).reason === "wrong_password")).toHaveLength(5);
  });

  test("25 parallel reset requests for one email: 5 links made, 20 refused (no mail bombing)", async () => {
    const user = await createUser({ password: "right-password" });
    const settled = await Promise.allSettled(
      Array.from({ length: PARALLEL }, async (_, i) => requestPasswordReset(await database(), from(`192.0.2.${i}`), user.email)),
    );
    const codes = settled.map(codeOf);
    expect(codes.filter((c) => c === "ok")).toHaveLength(5);
    expect(codes.filter((c) => c === "rate_limited")).toHaveLength(PARALLEL - 5);
    expect(await (await db()).passwordReset.count({ where: { userId: user.id } })).toBe(5);
  });

  test("25 parallel wrong step-ups: 5 are checked, 20 refused", async () => {
    const user = await createUser({ password: "right-password" });
    const ctx = await sessionOf(user.id);
    const settled = await Promise.allSettled(Array.from({ length: PARALLEL }, (_, i) => stepUp(ctx, { password: `wrong-${i}` })));
    const codes = settled.map(codeOf);
    expect(codes.filter((c) => c === "unauthenticated")).toHaveLength(5);
    expect(codes.filter((c) => c === "rate_limited")).toHaveLength(PARALLEL - 5);
  });

  test("changing the password shares step-up's lockout: five wrong current passwords lock both", async () => {
    const user = await createUser({ password: "right-password" });
    const ctx = await sessionOf(user.id);
    for (let i = 0; i < 5; i++) {
      const wrong = await changePassword(ctx, { current_password: `wrong-${i}`, new_password: "new-password-1" }).catch(
        (e: AppError) => e.code,
      );
      expect(wrong).toBe("invalid_request");
    }
    const locked = await changePassword(ctx, { current_password: "right-password", new_password: "new-password-1" }).catch(
      (e: AppError) => e.code,
    );
    expect(locked).toBe("rate_limited");
    expect(await stepUp(ctx, { password: "right-password" }).catch((e: AppError) => e.code)).toBe("rate_limited");
  });

  test("a right password releases its attempt: many good sign-ins never lock anyone", async () => {
    const user = await createUser({ password: "right-password" });
    for (let i = 0; i < 8; i++)
      expect((await signIn(await database(), from("198.51.100.200"), user.email, "right-password")).ok).toBe(true);
    const ctx = await sessionOf(user.id);
    for (let i = 0; i < 7; i++) await stepUp(ctx, { password: "right-password" });
    await changePassword(ctx, { current_password: "right-password", new_password: "new-password-1" });
    expect(await (await db()).authFailure.count({ where: { key: { in: [user.email, user.id, "198.51.100.200"] } } })).toBe(0);
  });
});
