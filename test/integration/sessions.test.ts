/**
 * Console sessions end when they should, copies of their cookies included (issue 21, finding 5):
 * a stateless 12-hour cookie used to outlive signing out, a password change or reset, and the SSO
 * provider or membership it came through. Each session is now a row the cookie names
 * (server/auth/sessions.ts), checked on every request. The attacker here holds a copy of the
 * victim's cookie and calls the console's own routes over real HTTP.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { encode } from "next-auth/jwt";
import { apiServer } from "../support/api-server.ts";
import { client, createUser, db, tenantWithMembers } from "../support/fixtures.ts";
import { recordSession } from "../support/console-caller.ts";
import { startOidcOp, type TestOp } from "../support/oidc-op.ts";
import { TestBrowser } from "../support/browser.ts";
import { oidcProvider, sessionCookieOf, signIn, uniqueDomain } from "../support/sso-signin.ts";
import { authOptions } from "../../server/account/nextauth.ts";
import { sessionClaimsOf } from "../../server/auth/session-token.ts";
import { secrets } from "../../server/secrets/store.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";

const api = apiServer({ appUrl: true });
let op: TestOp;
beforeAll(async () => {
  op = await startOidcOp();
});
afterAll(async () => {
  await metadataChecksIdle();
  await op.close();
});

/** A console call over HTTP with these cookies, as the browser's tRPC client makes it. */
async function trpc(cookie: string, procedure: string, input: unknown = {}, method: "GET" | "POST" = "GET") {
  const url = `${api.url}/api/trpc/${procedure}${method === "GET" ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ""}`;
  const res = await fetch(url, {
    method,
    headers: { cookie, origin: api.url, ...(method === "POST" ? { "content-type": "application/json" } : {}) },
    ...(method === "POST" ? { body: JSON.stringify(input) } : {}),
  });
  const body = (await res.json()) as { result?: { data: unknown }; error?: { data?: { httpStatus?: number } } };
  return { status: res.status, data: body.result?.data as Record<string, unknown> | undefined, res };
}
const whoAmI = async (cookie: string) => (await trpc(cookie, "account.me")).status;

/** A password sign-in through next-auth's own options: authorize, the jwt callback, the cookie it encodes. */
async function passwordSignIn(email: string, password: string) {
  const options = authOptions();
  const credentials = options.providers[0] as unknown as {
    options: { authorize: (c: Record<string, string>, req: unknown) => Promise<{ id: string } | null> };
  };
  const user = await credentials.options.authorize({ email, password }, { headers: { "user-agent": "vitest" } });
  if (!user) throw new Error("sign-in refused");
  const token = await options.callbacks!.jwt!({ token: { sub: user.id }, user: user as never, account: null } as never);
  const value = await encode({ token, secret: secrets().nextauthSecret });
  return { cookie: `next-auth.session-token=${value}`, token, signOut: () => options.events!.signOut!({ token } as never) };
}

describe("password sessions", () => {
  test("signing out ends the session: a copy of its cookie stops working at once", async () => {
    const user = await createUser({ password: "right-password-1" });
    const session = await passwordSignIn(user.email, "right-password-1");
    const stolen = session.cookie;
    expect(await whoAmI(stolen)).toBe(200);
    await session.signOut();
    expect(await whoAmI(stolen)).toBe(401);
  });

  test("a password change ends every session, this one too, and hands this browser a new cookie", async () => {
    const user = await createUser({ password: "right-password-1" });
    const here = await passwordSignIn(user.email, "right-password-1");
    const elsewhere = await passwordSignIn(user.email, "right-password-1");
    const changed = await trpc(
      here.cookie,
      "account.changePassword",
      { current_password: "right-password-1", new_password: "another-password-2" },
      "POST",
    );
    expect(changed.status).toBe(200);
    expect(await whoAmI(here.cookie)).toBe(401);
    expect(await whoAmI(elsewhere.cookie)).toBe(401);
    const fresh = changed.res.headers.getSetCookie().find((c) => c.startsWith("next-auth.session-token="));
    expect(fresh).toMatch(/HttpOnly/);
    const renewed = fresh!.split(";")[0]!;
    expect(await whoAmI(renewed)).toBe(200);
    const [event] = await (await db()).auditEvent.findMany({ where: { eventType: "user.updated", targetId: user.id } });
    expect(event?.details).toMatchObject({ sessions_ended: 2 });
  });

  test("the profile lists live sessions, ends one, and signs out everywhere", async () => {
    const user = await createUser({ password: "right-password-1" });
    const here = await passwordSignIn(user.email, "right-password-1");
    const phone = await passwordSignIn(user.email, "right-password-1");
    const laptop = await passwordSignIn(user.email, "right-password-1");
    const list = await trpc(here.cookie, "account.sessions");
    const results = list.data!.results as { id: string; current: boolean; method: string; user_agent: string }[];
    expect(results).toHaveLength(3);
    expect(results.filter((s) => s.current).map((s) => s.id)).toEqual([sessionClaimsOf(here.token)!.sessionId]);
    expect(results.every((s) => s.method === "password" && s.user_agent === "vitest")).toBe(true);

    // Another user's session, or one that does not exist, is a 404: nothing is ended.
    const stranger = await passwordSignIn((await createUser({ password: "right-password-1" })).email, "right-password-1");
    const strangers = sessionClaimsOf(stranger.token)!.sessionId!;
    expect((await trpc(here.cookie, "account.endSession", { session_id: strangers }, "POST")).status).toBe(404);
    expect(await whoAmI(stranger.cookie)).toBe(200);

    const phoneId = sessionClaimsOf(phone.token)!.sessionId!;
    expect((await trpc(here.cookie, "account.endSession", { session_id: phoneId }, "POST")).status).toBe(200);
    expect(await whoAmI(phone.cookie)).toBe(401);
    expect(await whoAmI(laptop.cookie)).toBe(200);

    const everywhere = await trpc(here.cookie, "account.signOutEverywhere", {}, "POST");
    expect(everywhere.data).toEqual({ sessions_ended: 2 });
    expect(await whoAmI(laptop.cookie)).toBe(401);
    expect(await whoAmI(here.cookie)).toBe(401);
    const events = await (
      await db()
    ).auditEvent.findMany({ where: { eventType: "user.sessions_ended", targetId: user.id }, orderBy: { sequence: "asc" } });
    expect(events.map((e) => e.details)).toEqual([
      { reason: "ended_by_user", count: 1, session_id: phoneId },
      { reason: "signed_out_everywhere", count: 2 },
    ]);
  });
});

describe("SSO sessions", () => {
  async function ssoSetup() {
    const { tenant, admin } = await tenantWithMembers();
    const domain = uniqueDomain();
    const { providerId } = await oidcProvider(api.url, admin.token, tenant.id, op, { domains: [domain] });
    const sub = `sub-${randomUUID().slice(0, 8)}`;
    const email = `${sub}@${domain}`;
    op.accounts.set(sub, { sub, email, email_verified: true });
    const browser = new TestBrowser();
    expect((await signIn(browser, api.url, op.origin, email)).status).toBe(303);
    const cookie = await sessionCookieOf(browser);
    return { tenant, admin, providerId, cookie };
  }

  async function adminSteppedUp(admin: { token: string }) {
    const api1 = client(api.url, admin.token);
    expect((await api1.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
    return api1;
  }

  test.each(["disabled", "deleted"] as const)(
    "the provider %s: its sessions end and the tokens minted in them are revoked",
    async (what) => {
      const { tenant, admin, providerId, cookie } = await ssoSetup();
      const minted = await trpc(cookie, "tokens.create", { name: "from sso", tenant_id: tenant.id }, "POST");
      expect(minted.status).toBe(200);
      const token = minted.data!.token as string;
      expect((await client(api.url, token).get(`/api/v1/tenants/${tenant.id}`)).status).toBe(200);
      // The admin's own password session, a token minted outside SSO: untouched.
      const adminSession = await passwordSignIn(admin.user.email, "admin-password");

      const rest = await adminSteppedUp(admin);
      const res =
        what === "disabled"
          ? await rest.patch(`/api/v1/tenants/${tenant.id}/sso/${providerId}`, { enabled: false })
          : await rest.delete(`/api/v1/tenants/${tenant.id}/sso/${providerId}`);
      expect(res.status, res.text).toBeLessThan(300);

      expect(await whoAmI(cookie)).toBe(401);
      expect((await client(api.url, token).get(`/api/v1/tenants/${tenant.id}`)).status).toBe(401);
      expect(await whoAmI(adminSession.cookie)).toBe(200);
      expect((await client(api.url, admin.token).get(`/api/v1/tenants/${tenant.id}`)).status).toBe(200);
    },
  );

  test("an admin who disables the provider from a session signed in through it goes on; everyone else's session ends", async () => {
    const { tenant, admin, providerId, cookie: colleague } = await ssoSetup();
    // A second person of the same domain, made admin, signs in through the provider too.
    const domain = (await (await db()).ssoDomain.findFirstOrThrow({ where: { providerId } })).domain;
    const sub = `sub-${randomUUID().slice(0, 8)}`;
    op.accounts.set(sub, { sub, email: `${sub}@${domain}`, email_verified: true });
    const browser = new TestBrowser();
    expect((await signIn(browser, api.url, op.origin, `${sub}@${domain}`)).status).toBe(303);
    const acting = await sessionCookieOf(browser);
    const me = (await trpc(acting, "account.me")).data!.user as { id: string };
    await (await db()).membership.update({ where: { tenantId_userId: { tenantId: tenant.id, userId: me.id } }, data: { role: "admin" } });
    // Stepped up at the IdP (the console does it in a popup; server/sso/signin/step-up.ts).
    const prisma = await db();
    const live = await prisma.consoleSession.findFirstOrThrow({ where: { userId: me.id, endedAt: null } });
    await prisma.stepUp.create({ data: { subject: `session:${live.id}`, userId: me.id, expiresAt: new Date(Date.now() + 600_000) } });

    const off = await trpc(acting, "tenantSso.update", { tenant_id: tenant.id, provider_id: providerId, enabled: false }, "POST");
    expect(off.status).toBe(200);
    expect(await whoAmI(acting)).toBe(200);
    expect(await whoAmI(colleague)).toBe(401);
    expect((await client(api.url, admin.token).get(`/api/v1/tenants/${tenant.id}`)).status).toBe(200);
  });

  test("removing the member from the tenant ends the SSO sessions scoped to it", async () => {
    const { tenant, admin, cookie } = await ssoSetup();
    expect(await whoAmI(cookie)).toBe(200);
    const me = await trpc(cookie, "account.me");
    const userId = (me.data!.user as { id: string }).id;
    const removed = await client(api.url, admin.token).delete(`/api/v1/tenants/${tenant.id}/members/${userId}`);
    expect(removed.status, removed.text).toBe(204);
    expect(await whoAmI(cookie)).toBe(401);
    const rows = await (await db()).consoleSession.findMany({ where: { userId } });
    expect(rows.map((r) => r.endReason)).toEqual(["member_removed"]);
  });
});

test("a session recorded for one user never serves another: the cookie's user and the row's must agree", async () => {
  const victim = await createUser();
  const attacker = await createUser();
  const sid = await recordSession(victim.id);
  const forged = await encode({ token: { sub: attacker.id, sid }, secret: secrets().nextauthSecret });
  expect(await whoAmI(`next-auth.session-token=${forged}`)).toBe(401);
});
