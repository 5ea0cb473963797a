import { describe, expect, test } from "vitest";
import { client, createUser, db } from "../support/fixtures.ts";
import { linkIn } from "../support/smtp.ts";
import { mailServers } from "../support/mail-servers.ts";
import { checkCredentials } from "../../server/account/users.ts";
import { sessionPrincipal } from "../../server/auth/principal.ts";
import { clock } from "../../server/clock.ts";

const servers = mailServers();

// Each test from its own client IP, so the per-IP limit of one test does not reach another: the
// address a trusted proxy appended (X-Forwarded-For is believed only with TRUST_PROXY).
process.env.TRUST_PROXY = "true";
let ipCounter = 10;
function anonymous() {
  const ip = `198.51.100.${ipCounter++}`;
  const c = client(servers.api.url);
  return {
    request: (email: string) => c.post("/api/v1/auth/password-reset", { email }, { "x-forwarded-for": ip }),
    confirm: (token: string, password: string) =>
      c.post("/api/v1/auth/password-reset/confirm", { token, password }, { "x-forwarded-for": ip }),
  };
}

async function resetLink(email: string, skip = 0) {
  return linkIn(await servers.smtp.waitFor(email, { skip }), "/reset-password").token;
}

describe("password reset", () => {
  test("a known email gets a mail; the link sets the password once and voids older sessions", async () => {
    const user = await createUser({ password: "old-password-1" });
    const caller = anonymous();
    const signedInBefore = clock.now().getTime() - 1000;
    const res = await caller.request(user.email.toUpperCase());
    expect(res.status).toBe(202);
    const token = await resetLink(user.email);

    const done = await caller.confirm(token, "new-password-2");
    expect(done.status, done.text).toBe(200);
    expect(done.json).toEqual({ email: user.email });
    expect(await checkCredentials(await db(), user.email, "new-password-2")).not.toBeNull();
    expect(await checkCredentials(await db(), user.email, "old-password-1")).toBeNull();

    const again = await caller.confirm(token, "third-password-3");
    expect(again.status).toBe(404);
    expect(await checkCredentials(await db(), user.email, "new-password-2")).not.toBeNull();

    // A console session from before the reset no longer resolves; one signed in after it does.
    expect(await sessionPrincipal(await db(), user.id, "s1", null, signedInBefore)).toBeNull();
    expect(await sessionPrincipal(await db(), user.id, "s2", null, clock.now().getTime() + 1)).not.toBeNull();
    const events = await (await db()).auditEvent.findMany({ where: { eventType: "user.password_reset", targetId: user.id } });
    expect(events).toHaveLength(1);
  });

  test("an unknown email gets the same answer and no mail", async () => {
    const known = await createUser({ password: "old-password-1" });
    const caller = anonymous();
    const before = servers.smtp.mails.length;
    const unknown = await caller.request(`nobody-${Date.now()}@example.com`);
    const existing = await caller.request(known.email);
    expect(unknown.status).toBe(202);
    expect(unknown.json).toEqual(existing.json);
    await resetLink(known.email);
    expect(servers.smtp.mails.slice(before).map((m) => m.to)).toEqual([[known.email]]);
  });

  test("a link expires after 30 minutes", async () => {
    const user = await createUser({ password: "old-password-1" });
    const caller = anonymous();
    await caller.request(user.email);
    const token = await resetLink(user.email);
    clock.now = () => new Date(servers.realNow().getTime() + 30 * 60_000 + 1000);
    const res = await caller.confirm(token, "new-password-2");
    expect(res.status).toBe(404);
    expect(res.json.detail).toMatch(/expired/);
    expect(await checkCredentials(await db(), user.email, "old-password-1")).not.toBeNull();
  });

  test("using one link kills the user's other reset links", async () => {
    const user = await createUser({ password: "old-password-1" });
    const caller = anonymous();
    await caller.request(user.email);
    const first = await resetLink(user.email);
    await caller.request(user.email);
    const second = await resetLink(user.email, 1);
    expect((await caller.confirm(second, "new-password-2")).status).toBe(200);
    expect((await caller.confirm(first, "other-password-3")).status).toBe(404);
  });

  test("rate limited like sign-in: the sixth request for one email within 15 minutes is 429, known or not", async () => {
    for (const email of [(await createUser({ password: "old-password-1" })).email, `nobody-${Date.now()}@example.com`]) {
      const caller = anonymous();
      for (let i = 0; i < 5; i++) expect((await caller.request(email)).status).toBe(202);
      const limited = await anonymous().request(email);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    }
  });

  test("400 naming the field", async () => {
    const caller = anonymous();
    expect((await caller.request("not-an-email")).json.errors[0].path).toBe("email");
    expect((await caller.confirm("x", "short")).json.errors[0].path).toBe("password");
  });
});
