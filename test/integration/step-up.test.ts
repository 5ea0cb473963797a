import { afterEach, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";
import { clock } from "../../server/clock.ts";
import { assertSteppedUp } from "../../server/auth/step-up.ts";
import { resolveBearer } from "../../server/auth/tokens.ts";
import { database } from "../../server/db/client.ts";
import { AppError } from "../../server/errors.ts";

const api = apiServer();
const realNow = clock.now;
afterEach(() => {
  clock.now = realNow;
});

/** Checks step-up the way stepUpProcedure does, for the principal of `token`. */
async function stepUpState(token: string): Promise<"fresh" | AppError> {
  const resolved = await resolveBearer((await database()).sql, token);
  if (!("principal" in resolved)) throw new Error("token did not resolve");
  try {
    await assertSteppedUp(await db(), resolved.principal);
    return "fresh";
  } catch (error) {
    return error as AppError;
  }
}

describe("step-up", () => {
  test("without step-up: step_up_required with the RFC 9470 challenge; after: allowed; after 10 minutes: required again", async () => {
    const { admin } = await tenantWithMembers();
    const before = await stepUpState(admin.token);
    expect(before).toBeInstanceOf(AppError);
    expect((before as AppError).status).toBe(401);
    expect((before as AppError).code).toBe("step_up_required");
    expect((before as AppError).options.headers?.["WWW-Authenticate"]).toBe('Bearer error="insufficient_user_authentication", max_age=600');

    const res = await client(api.url, admin.token).post("/api/v1/auth/step-up", { password: "admin-password" });
    expect(res.status).toBe(200);
    const expires = new Date(res.json.step_up_expires_at).getTime();
    expect(expires - Date.now()).toBeGreaterThan(9.9 * 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    expect(await stepUpState(admin.token)).toBe("fresh");
    expect((await client(api.url, admin.token).get("/api/v1/me")).json.step_up_expires_at).toBe(res.json.step_up_expires_at);

    clock.now = () => new Date(expires + 1000);
    expect(await stepUpState(admin.token)).toBeInstanceOf(AppError);
  });

  test("step-up belongs to the token that did it, not to the user's other tokens", async () => {
    const { admin } = await tenantWithMembers();
    const other = await client(api.url, admin.token).post("/api/v1/tokens", { name: "second" });
    await client(api.url, admin.token).post("/api/v1/auth/step-up", { password: "admin-password" });
    expect(await stepUpState(admin.token)).toBe("fresh");
    expect(await stepUpState(other.json.token)).toBeInstanceOf(AppError);
  });

  test("a wrong password is 401; five wrong in 15 minutes lock step-up for 15 minutes (429 + Retry-After)", async () => {
    const { admin } = await tenantWithMembers();
    const caller = client(api.url, admin.token);
    for (let i = 0; i < 5; i++) {
      const wrong = await caller.post("/api/v1/auth/step-up", { password: `wrong-${i}` });
      expect(wrong.status).toBe(401);
      expect(wrong.json.errors[0].path).toBe("password");
    }
    const locked = await caller.post("/api/v1/auth/step-up", { password: "admin-password" });
    expect(locked.status).toBe(429);
    expect(locked.json.code).toBe("rate_limited");
    const retryAfter = Number(locked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(await stepUpState(admin.token)).toBeInstanceOf(AppError);

    // Fifteen minutes later the lock has passed and the right password works again.
    const later = Date.now() + 15 * 60_000 + 1000;
    clock.now = () => new Date(later);
    const ok = await caller.post("/api/v1/auth/step-up", { password: "admin-password" });
    expect(ok.status).toBe(200);
  });

  test("a successful step-up records user.step_up", async () => {
    const { tenant, admin } = await tenantWithMembers();
    await client(api.url, admin.token).post("/api/v1/auth/step-up", { password: "admin-password" });
    const events = await (await db()).auditEvent.findMany({ where: { tenantId: tenant.id, eventType: "user.step_up" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: admin.user.id, targetId: admin.user.id });
    expect(JSON.stringify(events[0]!.details)).not.toContain("admin-password");
  });
});
