/**
 * Second factors of console accounts (issue 41): an authenticator app (TOTP) enrolled on the
 * profile, recovery codes, password sign-in and step-up asking for them, and their limits and
 * audit events. Everything goes through the real server: the console's tRPC over HTTP, next-auth's
 * Credentials authorize, REST /api/v1/auth/step-up. Codes are computed by otpauth from the secret.
 */
import { afterEach, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, createUser, db } from "../support/fixtures.ts";
import { consoleSignIn, cookieOf, nextTotpStep, totpCode, trpcCall } from "../support/mfa.ts";
import { clock } from "../../server/clock.ts";
import { purgeStalePendingFactors } from "../../server/auth/mfa.ts";

const api = apiServer();
const realNow = clock.now;
afterEach(() => {
  clock.now = realNow;
});

const PASSWORD = "right-password-41";
const trpc = (cookie: string, procedure: string, input: unknown = {}, method: "GET" | "POST" = "POST") =>
  trpcCall(api.url, cookie, procedure, input, method);

async function stepUp(cookie: string, proof: Record<string, string> = { password: PASSWORD }) {
  const res = await trpc(cookie, "account.stepUp", proof);
  expect(res.status, JSON.stringify(res.error)).toBe(200);
}

/** A user who enrolled an authenticator app on the profile: its secret, recovery codes and session. */
async function enrolledUser() {
  const user = await createUser({ password: PASSWORD });
  const cookie = cookieOf(await consoleSignIn(user.email, PASSWORD));
  await stepUp(cookie);
  const started = await trpc(cookie, "account.mfa.startTotp", { name: "Phone" });
  expect(started.status).toBe(200);
  const confirmed = await trpc(cookie, "account.mfa.confirmTotp", {
    factor_id: started.data.factor_id,
    code: totpCode(started.data.secret),
  });
  expect(confirmed.status, JSON.stringify(confirmed.error)).toBe(200);
  return {
    user,
    cookie,
    secret: started.data.secret as string,
    factorId: started.data.factor_id as string,
    recoveryCodes: confirmed.data.recovery_codes as string[],
  };
}

const eventsOf = async (userId: string, type: string) =>
  (await db()).auditEvent.findMany({ where: { targetId: userId, eventType: type }, orderBy: { sequence: "asc" } });

describe("enrolling an authenticator app", () => {
  test("start needs a step-up, answers the secret and its QR code once; a wrong code is refused; the right one enrols with 10 recovery codes", async () => {
    const user = await createUser({ password: PASSWORD });
    const cookie = cookieOf(await consoleSignIn(user.email, PASSWORD));
    const unconfirmed = await trpc(cookie, "account.mfa.startTotp", {});
    expect(unconfirmed.status).toBe(401);
    expect(unconfirmed.error?.data?.appCode).toBe("step_up_required");

    await stepUp(cookie);
    const started = await trpc(cookie, "account.mfa.startTotp", { name: "Phone" });
    expect(started.status).toBe(200);
    expect(started.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.data.uri).toMatch(/^otpauth:\/\/totp\/Control%20Plane:/);
    expect(started.data.uri).toContain(`secret=${started.data.secret}`);
    expect(started.data.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(started.data.qr_code.split(",")[1], "base64").toString()).toContain("<svg");

    // Pending: it is not a factor yet (sign-in still needs only the password).
    expect((await trpc(cookie, "account.mfa.status", {}, "GET")).data.factors).toEqual([]);
    expect("cookie" in (await consoleSignIn(user.email, PASSWORD))).toBe(true);

    const wrong = await trpc(cookie, "account.mfa.confirmTotp", { factor_id: started.data.factor_id, code: "000000" });
    expect(wrong.status).toBe(400);
    expect(wrong.error?.data?.errors?.[0]?.path).toBe("code");
    const malformed = await trpc(cookie, "account.mfa.confirmTotp", { factor_id: started.data.factor_id, code: "12ab" });
    expect(malformed.status).toBe(400);
    expect(malformed.error?.data?.errors?.[0]?.path).toBe("code");

    const confirmed = await trpc(cookie, "account.mfa.confirmTotp", {
      factor_id: started.data.factor_id,
      code: totpCode(started.data.secret),
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.data.factor).toMatchObject({ id: started.data.factor_id, kind: "totp", name: "Phone" });
    expect(confirmed.data.recovery_codes).toHaveLength(10);
    expect(new Set(confirmed.data.recovery_codes).size).toBe(10);

    // Never echoed again, and kept encrypted.
    const status = await trpc(cookie, "account.mfa.status", {}, "GET");
    expect(status.data).toMatchObject({ recovery_codes_remaining: 10, enrollment_required: false, available: true });
    expect(status.data.factors).toHaveLength(1);
    expect(JSON.stringify(status.data)).not.toContain(started.data.secret);
    const row = await (await db()).userMfaFactor.findUniqueOrThrow({ where: { id: started.data.factor_id } });
    expect(row.secretEncrypted).not.toContain(started.data.secret);
    const codes = await (await db()).userRecoveryCode.findMany({ where: { userId: user.id } });
    expect(codes.map((c) => c.codeHash)).not.toContain(confirmed.data.recovery_codes[0]);

    // Confirming again (or someone else's pending one) finds nothing.
    expect((await trpc(cookie, "account.mfa.confirmTotp", { factor_id: started.data.factor_id, code: "123456" })).status).toBe(404);
    const [enrolled] = await eventsOf(user.id, "user.mfa_enrolled");
    expect(enrolled?.details).toMatchObject({
      factor_id: started.data.factor_id,
      kind: "totp",
      name: "Phone",
      recovery_codes_issued: true,
    });
  });

  test("an enrolment not confirmed within 15 minutes is gone: its code finds nothing, and housekeeping drops its secret", async () => {
    const user = await createUser({ password: PASSWORD });
    const cookie = cookieOf(await consoleSignIn(user.email, PASSWORD));
    await stepUp(cookie);
    const started = await trpc(cookie, "account.mfa.startTotp", {});
    const later = clock.now().getTime() + 16 * 60_000;
    clock.now = () => new Date(later);
    const late = await trpc(cookie, "account.mfa.confirmTotp", { factor_id: started.data.factor_id, code: totpCode(started.data.secret) });
    expect(late.status).toBe(404);
    expect(await purgeStalePendingFactors(await db())).toBeGreaterThanOrEqual(1);
    expect(await (await db()).userMfaFactor.count({ where: { id: started.data.factor_id } })).toBe(0);
  });

  test("an account without a password (SSO) has nothing to add a factor to", async () => {
    const user = await createUser({ password: PASSWORD });
    const cookie = cookieOf(await consoleSignIn(user.email, PASSWORD));
    await stepUp(cookie);
    await (await db()).user.update({ where: { id: user.id }, data: { passwordHash: null } });
    const res = await trpc(cookie, "account.mfa.startTotp", {});
    expect(res.status).toBe(400);
  });
});

describe("managing factors", () => {
  test("rename and remove are one's own: another user's factor, or a malformed id, is a 404", async () => {
    const owner = await enrolledUser();
    const other = await enrolledUser();
    for (const factor_id of [owner.factorId, "not-a-uuid"]) {
      expect((await trpc(other.cookie, "account.mfa.rename", { factor_id, name: "Mine now" })).status).toBe(404);
      expect((await trpc(other.cookie, "account.mfa.remove", { factor_id })).status).toBe(404);
    }
    expect((await trpc(owner.cookie, "account.mfa.rename", { factor_id: owner.factorId, name: "  " })).error?.data?.errors?.[0]?.path).toBe(
      "name",
    );
    const renamed = await trpc(owner.cookie, "account.mfa.rename", { factor_id: owner.factorId, name: "Work phone" });
    expect(renamed.data).toMatchObject({ id: owner.factorId, name: "Work phone" });
    expect((await (await db()).userMfaFactor.findUniqueOrThrow({ where: { id: owner.factorId } })).name).toBe("Work phone");
  });

  test("removing needs a step-up, the last factor a fresh one (2 minutes), and takes the recovery codes with it", async () => {
    const { user, cookie, secret, factorId } = await enrolledUser();
    // A second app: removing the first one is not removing the last.
    nextTotpStep();
    const second = await trpc(cookie, "account.mfa.startTotp", { name: "Tablet" });
    const confirmed = await trpc(cookie, "account.mfa.confirmTotp", {
      factor_id: second.data.factor_id,
      code: totpCode(second.data.secret),
    });
    expect(confirmed.data.recovery_codes).toBeNull();

    // Five minutes on: the step-up of the enrolment is still good for removing one of two…
    const at = clock.now().getTime() + 5 * 60_000;
    clock.now = () => new Date(at);
    expect((await trpc(cookie, "account.mfa.remove", { factor_id: second.data.factor_id })).status).toBe(200);
    // …but not for the last one.
    const stale = await trpc(cookie, "account.mfa.remove", { factor_id: factorId });
    expect(stale.status).toBe(401);
    expect(stale.error?.data?.appCode).toBe("step_up_required");
    await stepUp(cookie, { password: PASSWORD, totp_code: totpCode(secret) });
    expect((await trpc(cookie, "account.mfa.remove", { factor_id: factorId })).status).toBe(200);

    expect(await (await db()).userRecoveryCode.count({ where: { userId: user.id } })).toBe(0);
    expect((await eventsOf(user.id, "user.mfa_removed")).map((e) => e.details)).toEqual([
      { factor_id: second.data.factor_id, kind: "totp", name: "Tablet", remaining: 1 },
      { factor_id: factorId, kind: "totp", name: "Phone", remaining: 0 },
    ]);
    // The password alone signs in again.
    expect("cookie" in (await consoleSignIn(user.email, PASSWORD))).toBe(true);
  });

  test("new recovery codes (after a step-up) replace the old ones", async () => {
    const { cookie, recoveryCodes } = await enrolledUser();
    const fresh = await trpc(cookie, "account.mfa.regenerateRecoveryCodes", {});
    expect(fresh.status).toBe(200);
    expect(fresh.data.recovery_codes).toHaveLength(10);
    expect(fresh.data.recovery_codes).not.toContain(recoveryCodes[0]);
    const res = await trpc(cookie, "account.stepUp", { recovery_code: recoveryCodes[0] });
    expect(res.status).toBe(401);
  });
});

describe("password sign-in with a second factor", () => {
  test("the password alone is not enough: the form is asked for the code, and a wrong password says nothing of a factor", async () => {
    const { user, secret } = await enrolledUser();
    expect(await consoleSignIn(user.email, "wrong-password")).toEqual({ refused: "invalid" });
    expect(await consoleSignIn(user.email, PASSWORD)).toEqual({ refused: "mfa_required" });
    expect(await consoleSignIn(user.email, "wrong-password", { totp_code: "123456" })).toEqual({ refused: "invalid" });
    nextTotpStep();
    const signedIn = await consoleSignIn(user.email, PASSWORD, { totp_code: totpCode(secret) });
    expect("cookie" in signedIn).toBe(true);
    expect((await trpc(cookieOf(signedIn), "account.me", {}, "GET")).status).toBe(200);
    const row = await (await db()).userMfaFactor.findFirstOrThrow({ where: { userId: user.id } });
    expect(row.lastUsedAt).not.toBeNull();
  });

  test("a replayed code is refused; wrong codes are recorded and lock sign-in like wrong passwords", async () => {
    const { user, secret } = await enrolledUser();
    nextTotpStep();
    const code = totpCode(secret);
    expect("cookie" in (await consoleSignIn(user.email, PASSWORD, { totp_code: code }))).toBe(true);
    expect(await consoleSignIn(user.email, PASSWORD, { totp_code: code })).toEqual({ refused: "mfa_failed" });
    for (let i = 0; i < 4; i++)
      expect(await consoleSignIn(user.email, PASSWORD, { totp_code: "000000" })).toEqual({ refused: "mfa_failed" });
    nextTotpStep();
    const locked = await consoleSignIn(user.email, PASSWORD, { totp_code: totpCode(secret) });
    expect((locked as { refused: string }).refused).toMatch(/^rate_limited:\d+$/);

    const failures = await eventsOf(user.id, "user.mfa_challenge_failed");
    expect(failures.map((e) => e.details)).toEqual([
      { during: "sign_in", method: "totp", reason: "replayed_code" },
      ...Array.from({ length: 4 }, () => ({ during: "sign_in", method: "totp", reason: "wrong_code" })),
    ]);
    expect(JSON.stringify(failures.map((e) => e.details))).not.toContain("000000");
  });

  test("a recovery code signs in once, then never again", async () => {
    const { user, recoveryCodes } = await enrolledUser();
    const [code] = recoveryCodes;
    const first = await consoleSignIn(user.email, PASSWORD, { recovery_code: code!.toUpperCase() });
    expect("cookie" in first).toBe(true);
    expect(await consoleSignIn(user.email, PASSWORD, { recovery_code: code! })).toEqual({ refused: "mfa_failed" });
    const [used] = await eventsOf(user.id, "user.recovery_code_used");
    expect(used?.details).toEqual({ during: "sign_in", remaining: 9 });
    const [failed] = await eventsOf(user.id, "user.mfa_challenge_failed");
    expect(failed?.details).toEqual({ during: "sign_in", method: "recovery_code", reason: "wrong_code" });
  });
});

describe("REST step-up with a second factor", () => {
  test("{password} is refused with mfa_required; {password, totp_code} steps up; the same code again is refused", async () => {
    const { user, secret } = await enrolledUser();
    const token = await createToken(user.id);
    const rest = client(api.url, token);

    const alone = await rest.post("/api/v1/auth/step-up", { password: PASSWORD });
    expect(alone.status).toBe(401);
    expect(alone.json).toMatchObject({ code: "mfa_required", errors: [{ path: "totp_code", message: "is required" }] });
    expect((await rest.get("/api/v1/me")).json.step_up_expires_at).toBeNull();

    nextTotpStep();
    const code = totpCode(secret);
    const ok = await rest.post("/api/v1/auth/step-up", { password: PASSWORD, totp_code: code });
    expect(ok.status).toBe(200);
    expect(ok.json.step_up_expires_at).toEqual(expect.any(String));
    const replayed = await rest.post("/api/v1/auth/step-up", { password: PASSWORD, totp_code: code });
    expect(replayed.status).toBe(401);
    expect(replayed.json).toMatchObject({ code: "unauthenticated", errors: [{ path: "totp_code" }] });

    const stepped = (await eventsOf(user.id, "user.step_up")).at(-1);
    expect(stepped?.details).toMatchObject({ via: "token", method: "password_totp" });
    const [failed] = await eventsOf(user.id, "user.mfa_challenge_failed");
    expect(failed?.details).toEqual({ during: "step_up", method: "totp", reason: "replayed_code" });
  });

  test("{recovery_code} steps up once; wrong codes count toward the password lockout", async () => {
    const { user, recoveryCodes } = await enrolledUser();
    const rest = client(api.url, await createToken(user.id));
    expect((await rest.post("/api/v1/auth/step-up", { recovery_code: recoveryCodes[1] })).status).toBe(200);
    const again = await rest.post("/api/v1/auth/step-up", { recovery_code: recoveryCodes[1] });
    expect(again.status).toBe(401);
    expect(again.json.errors).toEqual([{ path: "recovery_code", message: "is incorrect or was already used" }]);
    const [used] = await eventsOf(user.id, "user.recovery_code_used");
    expect(used?.details).toEqual({ during: "step_up", remaining: 9 });

    for (let i = 0; i < 3; i++)
      expect((await rest.post("/api/v1/auth/step-up", { password: PASSWORD, totp_code: "000000" })).status).toBe(401);
    expect((await rest.post("/api/v1/auth/step-up", { password: "wrong-one" })).status).toBe(401);
    const locked = await rest.post("/api/v1/auth/step-up", { recovery_code: recoveryCodes[2] });
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  test("bad shapes are 400s naming the field; an account without an app keeps {password}", async () => {
    const plain = await createUser({ password: PASSWORD });
    const rest = client(api.url, await createToken(plain.id));
    const cases: [unknown, string][] = [
      [{}, "password"],
      [{ password: PASSWORD, recovery_code: "abcde-fghij" }, "recovery_code"],
      [{ password: PASSWORD, totp_code: "12" }, "totp_code"],
      [{ password: PASSWORD, totp_code: 123456 }, "totp_code"],
      [{ password: PASSWORD, totp_code: "123456" }, "totp_code"],
    ];
    for (const [body, path] of cases) {
      const res = await rest.post("/api/v1/auth/step-up", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errors[0].path, JSON.stringify(body)).toBe(path);
    }
    expect((await rest.post("/api/v1/auth/step-up", { password: PASSWORD })).status).toBe(200);
  });
});
