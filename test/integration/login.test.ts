import { afterEach, describe, expect, test } from "vitest";
import { database } from "../../server/db/client.ts";
import { signIn } from "../../server/account/login.ts";
import { clock } from "../../server/clock.ts";
import { createUser, db, tenantWithMembers } from "../support/fixtures.ts";

const from = (ip: string) => ({ requestId: "t", ip, userAgent: "vitest-browser/1.0" });
const realNow = clock.now;
afterEach(() => {
  clock.now = realNow;
});

describe("console sign-in", () => {
  test("success records user.login with IP and user agent in each of the user's tenants", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const result = await signIn(await database(), from("203.0.113.7"), admin.user.email.toUpperCase(), "admin-password");
    expect(result).toMatchObject({ ok: true, user: { id: admin.user.id } });
    const events = await (await db()).auditEvent.findMany({ where: { tenantId: tenant.id, eventType: "user.login" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: admin.user.id, ipAddress: "203.0.113.7", userAgent: "vitest-browser/1.0" });
  });

  test("a wrong password records user.login_failed (never the password)", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const result = await signIn(await database(), from("203.0.113.8"), admin.user.email, "guess-one");
    expect(result).toEqual({ ok: false, reason: "invalid" });
    const events = await (await db()).auditEvent.findMany({ where: { tenantId: tenant.id, eventType: "user.login_failed" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ ipAddress: "203.0.113.8", details: { email: admin.user.email, reason: "wrong_password" } });
    expect(JSON.stringify(events[0]!.details)).not.toContain("guess-one");
  });

  test("an unknown email fails the same way and is recorded as a platform event", async () => {
    const result = await signIn(await database(), from("203.0.113.9"), "nobody@example.com", "whatever");
    expect(result).toEqual({ ok: false, reason: "invalid" });
    const events = await (await db()).auditEvent.findMany({ where: { tenantId: null, eventType: "user.login_failed" } });
    expect(events.some((e) => (e.details as { email?: string }).email === "nobody@example.com")).toBe(true);
  });

  test("five failures for one email in 15 minutes block it, even with the right password, until the window passes", async () => {
    const user = await createUser({ password: "right-password" });
    for (let i = 0; i < 5; i++) expect((await signIn(await database(), from(`198.51.100.${i}`), user.email, "wrong")).ok).toBe(false);
    const blocked = await signIn(await database(), from("198.51.100.99"), user.email, "right-password");
    expect(blocked).toMatchObject({ ok: false, reason: "rate_limited" });
    expect((blocked as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(14 * 60);
    clock.now = () => new Date(Date.now() + 15 * 60_000 + 1000);
    expect((await signIn(await database(), from("198.51.100.99"), user.email, "right-password")).ok).toBe(true);
  });

  test("one IP failing across many emails is blocked for every email", async () => {
    const ip = "192.0.2.55";
    for (let i = 0; i < 30; i++) await signIn(await database(), from(ip), `spray-${i}@example.com`, "wrong");
    const user = await createUser({ password: "right-password" });
    expect(await signIn(await database(), from(ip), user.email, "right-password")).toMatchObject({ ok: false, reason: "rate_limited" });
    expect((await signIn(await database(), from("192.0.2.56"), user.email, "right-password")).ok).toBe(true);
  }, 60_000);
});
