import { describe, expect, test } from "vitest";
import { client, createToken, createUser, db } from "../support/fixtures.ts";
import { linkIn } from "../support/smtp.ts";
import { mailServers } from "../support/mail-servers.ts";
import { checkCredentials } from "../../server/account/users.ts";
import { sessionPrincipal } from "../../server/auth/sessions.ts";
import { clock } from "../../server/clock.ts";
import { database } from "../../server/db/client.ts";
import { recordSession } from "../support/console-caller.ts";

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
    confirm: (token: string, password: string, extra: Record<string, unknown> = {}) =>
      c.post("/api/v1/auth/password-reset/confirm", { token, password, ...extra }, { "x-forwarded-for": ip }),
  };
}

async function resetLink(email: string, skip = 0) {
  return linkIn(await servers.smtp.waitFor(email, { skip }), "/reset-password").token;
}

describe("password reset", () => {
  test("a known email gets a mail; the link sets the password once and ends every session", async () => {
    const user = await createUser({ password: "old-password-1" });
    const caller = anonymous();
    const before = [await recordSession(user.id), await recordSession(user.id)];
    const apiToken = await createToken(user.id);
    const res = await caller.request(user.email.toUpperCase());
    expect(res.status).toBe(202);
    const token = await resetLink(user.email);

    const done = await caller.confirm(token, "new-password-2");
    expect(done.status, done.text).toBe(200);
    expect(done.json).toEqual({ email: user.email, sessions_ended: 2, tokens_revoked: 0 });
    expect(await checkCredentials(await db(), user.email, "new-password-2")).not.toBeNull();
    expect(await checkCredentials(await db(), user.email, "old-password-1")).toBeNull();

    const again = await caller.confirm(token, "third-password-3");
    expect(again.status).toBe(404);
    expect(await checkCredentials(await db(), user.email, "new-password-2")).not.toBeNull();

    // The sessions from before the reset no longer resolve (copies of their cookies neither); a
    // session signed in after it does. API tokens live on unless the reset asked to revoke them.
    const { sql } = await database();
    for (const sessionId of before) expect(await sessionPrincipal(sql, { userId: user.id, sessionId })).toBeNull();
    expect(await sessionPrincipal(sql, { userId: user.id, sessionId: await recordSession(user.id) })).not.toBeNull();
    expect((await client(servers.api.url, apiToken).get("/api/v1/me")).status).toBe(200);
    const events = await (await db()).auditEvent.findMany({ where: { eventType: "user.password_reset", targetId: user.id } });
    expect(events).toHaveLength(1);
  });

  test("revoke_tokens: true revokes every API token of the account with the sessions", async () => {
    const user = await createUser({ password: "old-password-1" });
    const other = await createUser({ password: "old-password-1" });
    const mine = [await createToken(user.id), await createToken(user.id)];
    const theirs = await createToken(other.id);
    const caller = anonymous();
    await caller.request(user.email);
    const done = await caller.confirm(await resetLink(user.email), "new-password-2", { revoke_tokens: true });
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({ tokens_revoked: 2 });
    for (const token of mine) expect((await client(servers.api.url, token).get("/api/v1/me")).status).toBe(401);
    expect((await client(servers.api.url, theirs).get("/api/v1/me")).status).toBe(200);
    const [event] = await (await db()).auditEvent.findMany({ where: { eventType: "user.password_reset", targetId: user.id } });
    expect(event?.details).toMatchObject({ tokens_revoked: 2, sessions_ended: 0 });
    const bad = await caller.confirm("x".repeat(20), "new-password-3", { revoke_tokens: "yes" });
    expect(bad.json.errors?.[0]?.path, bad.text).toBe("revoke_tokens");
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
