import { describe, expect, test } from "vitest";
import { client, createToken, createUser, db, tenantWithMembers } from "../support/fixtures.ts";
import { linkIn } from "../support/smtp.ts";
import { mailServers } from "../support/mail-servers.ts";
import { checkCredentials } from "../../server/account/users.ts";
import { hashLinkToken } from "../../server/auth/link-tokens.ts";
import { clock } from "../../server/clock.ts";
import { env } from "../../server/env.ts";
import { consoleAs } from "../support/console-caller.ts";

const servers = mailServers();

const events = async (tenantId: string, type: string) => (await db()).auditEvent.findMany({ where: { tenantId, eventType: type } });
let n = 0;
const newEmail = () => `invitee-${Date.now()}-${++n}@example.com`;

async function invite(tenantId: string, token: string, email: string, role = "viewer") {
  const res = await client(servers.api.url, token).post(`/api/v1/tenants/${tenantId}/invitations`, { email, role });
  expect(res.status, res.text).toBe(201);
  const mail = await servers.smtp.waitFor(email);
  return { invitation: res.json, mail, token: linkIn(mail, "/invite").token };
}

describe("invitations", () => {
  test("the mail goes through SMTP_URL (the test's loopback SMTP server), and the console knows it", async () => {
    expect(env().SMTP_URL).toBe(servers.smtp.url);
    const { tenant, admin } = await tenantWithMembers();
    expect(await (await consoleAs(admin.user.id)).invitations.delivery({ tenant_id: tenant.id })).toEqual({ mail_server: true });
  });

  test("an admin invites a new person: mail with a link; following it sets a password and joins with the role", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const email = newEmail();
    const { invitation, mail, token } = await invite(tenant.id, admin.token, email, "admin");
    expect(invitation).toMatchObject({
      tenant_id: tenant.id,
      email,
      role: "admin",
      status: "pending",
      invited_by: admin.user.id,
      email_sent: true,
      // Mailed: the inviter never sees the link (only the mail's arrival proves the address).
      link: null,
      accept_by: "link",
    });
    expect(new Date(invitation.expires_at).getTime() - Date.now()).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
    expect(mail.subject).toContain(tenant.name);
    expect(linkIn(mail, "/invite").url).toMatch(/^http:\/\/localhost:\d+\/invite#token=/);
    // Only the hash is stored.
    const row = await (await db()).invitation.findUniqueOrThrow({ where: { id: invitation.id } });
    expect(row.tokenHash).toBe(hashLinkToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(await events(tenant.id, "invitation.created")).toMatchObject([
      { actorId: admin.user.id, targetId: invitation.id, details: { email, role: "admin" } },
    ]);

    const anonymous = client(servers.api.url);
    const preview = await anonymous.post("/api/v1/invitations/lookup", { token });
    expect(preview.status).toBe(200);
    // Nothing about the account the email may have.
    expect(preview.json).toEqual({
      tenant_id: tenant.id,
      tenant_name: tenant.name,
      email,
      role: "admin",
      expires_at: invitation.expires_at,
    });

    const missing = await anonymous.post("/api/v1/invitations/accept", { token });
    expect(missing.status).toBe(400);
    expect(missing.json.errors).toEqual([{ path: "password", message: "is required to create your account" }]);

    const accepted = await anonymous.post("/api/v1/invitations/accept", { token, password: "invited-password-1", name: "Ivy Invited" });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json).toMatchObject({ tenant_id: tenant.id, email, role: "admin" });
    expect(await checkCredentials(await db(), email, "invited-password-1")).not.toBeNull();

    // Signed in with the chosen role: a token of the new user reaches the tenant as admin.
    const own = client(servers.api.url, await createToken(accepted.json.user_id));
    const me = await own.get("/api/v1/me");
    expect(me.json.memberships).toEqual([{ tenant_id: tenant.id, tenant_name: tenant.name, role: "admin" }]);
    expect((await own.get(`/api/v1/tenants/${tenant.id}/invitations`)).status).toBe(200);

    expect(await events(tenant.id, "invitation.accepted")).toMatchObject([{ actorId: accepted.json.user_id, targetId: invitation.id }]);
    expect(await events(tenant.id, "user.created")).toMatchObject([
      { targetId: accepted.json.user_id, details: { email, role: "admin", new_user: true, via: "invitation" } },
    ]);

    // Single use.
    const again = await anonymous.post("/api/v1/invitations/accept", { token, password: "another-password-2" });
    expect(again.status).toBe(404);
    expect(again.json.detail).toMatch(/already been used/);
    expect((await anonymous.post("/api/v1/invitations/lookup", { token })).status).toBe(404);
    const list = await client(servers.api.url, admin.token).get(`/api/v1/tenants/${tenant.id}/invitations?status=accepted`);
    expect(list.json.results).toMatchObject([{ id: invitation.id, status: "accepted" }]);
  });

  test("a link expires after 7 days", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const email = newEmail();
    const { token } = await invite(tenant.id, admin.token, email);
    clock.now = () => new Date(servers.realNow().getTime() + 7 * 24 * 3600_000 + 60_000);
    const res = await client(servers.api.url).post("/api/v1/invitations/accept", { token, password: "invited-password-1" });
    expect(res.status).toBe(404);
    expect(res.json.detail).toMatch(/expired/);
    const list = await client(servers.api.url, admin.token).get(`/api/v1/tenants/${tenant.id}/invitations?status=expired`);
    expect(list.json.results.map((i: { email: string }) => i.email)).toEqual([email]);
    expect(await checkCredentials(await db(), email, "invited-password-1")).toBeNull();
  });

  test("revoked: the link dies, the list says so, invitation.revoked is recorded", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const email = newEmail();
    const { invitation, token } = await invite(tenant.id, admin.token, email);
    const api1 = client(servers.api.url, admin.token);
    expect((await api1.delete(`/api/v1/tenants/${tenant.id}/invitations/${invitation.id}`)).status).toBe(204);
    expect((await api1.delete(`/api/v1/tenants/${tenant.id}/invitations/${invitation.id}`)).status).toBe(204);
    expect(await events(tenant.id, "invitation.revoked")).toHaveLength(1);
    const res = await client(servers.api.url).post("/api/v1/invitations/accept", { token, password: "invited-password-1" });
    expect(res.status).toBe(404);
    expect((await api1.get(`/api/v1/tenants/${tenant.id}/invitations?status=revoked`)).json.results).toMatchObject([
      { id: invitation.id, status: "revoked" },
    ]);
    expect((await api1.get(`/api/v1/tenants/${tenant.id}/invitations?status=pending`)).json.count).toBe(0);
    expect((await api1.post(`/api/v1/tenants/${tenant.id}/invitations/${invitation.id}/resend`)).status).toBe(409);
  });

  test("resend: a new mail with a new link; the old link is dead", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const email = newEmail();
    const { invitation, token: first } = await invite(tenant.id, admin.token, email);
    const res = await client(servers.api.url, admin.token).post(`/api/v1/tenants/${tenant.id}/invitations/${invitation.id}/resend`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ id: invitation.id, status: "pending", email_sent: true, link: null, accept_by: "link" });
    const second = linkIn(await servers.smtp.waitFor(email, { skip: 1 }), "/invite").token;
    expect(second).not.toBe(first);
    expect(
      (await client(servers.api.url).post("/api/v1/invitations/accept", { token: first, password: "invited-password-1" })).status,
    ).toBe(404);
    expect(
      (await client(servers.api.url).post("/api/v1/invitations/accept", { token: second, password: "invited-password-1" })).status,
    ).toBe(200);
    expect(await events(tenant.id, "invitation.resent")).toMatchObject([{ actorId: admin.user.id, targetId: invitation.id }]);
  });

  test("an existing account with a password joins only by accepting while signed in as itself", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const existing = await createUser({ password: "their-own-password" });
    const { token } = await invite(tenant.id, admin.token, existing.email);
    const preview = await client(servers.api.url).post("/api/v1/invitations/lookup", { token });
    expect(Object.keys(preview.json).sort()).toEqual(["email", "expires_at", "role", "tenant_id", "tenant_name"]);

    const anonymous = await client(servers.api.url).post("/api/v1/invitations/accept", { token, password: "hijack-attempt-1" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.detail).toBe(`Sign in as ${existing.email} to accept this invitation`);
    const other = await createUser({ password: "other-password" });
    const asOther = await client(servers.api.url, await createToken(other.id)).post("/api/v1/invitations/accept", { token });
    expect(asOther.status).toBe(403);
    // Tokens made for less than the whole account cannot accept for it.
    for (const options of [{ readOnly: true }, { tenantId: tenant.id }]) {
      const narrow = await client(servers.api.url, await createToken(existing.id, options)).post("/api/v1/invitations/accept", { token });
      expect(narrow.status, JSON.stringify(options)).toBe(403);
    }

    const asSelf = await client(servers.api.url, await createToken(existing.id)).post("/api/v1/invitations/accept", {
      token,
      password: "a-new-password-9",
      name: "Renamed By Link",
    });
    expect(asSelf.status, asSelf.text).toBe(200);
    expect(asSelf.json).toMatchObject({ user_id: existing.id, role: "viewer" });
    expect(await checkCredentials(await db(), existing.email, "their-own-password")).not.toBeNull();
    expect(await checkCredentials(await db(), existing.email, "hijack-attempt-1")).toBeNull();
    expect(await checkCredentials(await db(), existing.email, "a-new-password-9")).toBeNull();
    expect((await (await db()).user.findUniqueOrThrow({ where: { id: existing.id } })).name).toBeNull();
    expect(await events(tenant.id, "user.created")).toMatchObject([{ actorId: existing.id, details: { new_user: false } }]);
  });

  test("an account without a password (SSO, directory) is not given one by a link: it accepts signed in", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const existing = await createUser();
    const { invitation, token } = await invite(tenant.id, admin.token, existing.email, "admin");
    // With a mail server the answer is the same as for a new email.
    expect(invitation).toMatchObject({ email_sent: true, link: null, accept_by: "link" });
    for (const body of [{ token, password: "hijack-attempt-1" }, { token }]) {
      const anonymous = await client(servers.api.url).post("/api/v1/invitations/accept", body);
      expect(anonymous.status).toBe(401);
    }
    const row = await (await db()).user.findUniqueOrThrow({ where: { id: existing.id } });
    expect(row.passwordHash).toBeNull();
    expect(await (await db()).membership.count({ where: { tenantId: tenant.id, userId: existing.id } })).toBe(0);

    const asSelf = await client(servers.api.url, await createToken(existing.id)).post("/api/v1/invitations/accept", { token });
    expect(asSelf.status, asSelf.text).toBe(200);
    expect((await (await db()).user.findUniqueOrThrow({ where: { id: existing.id } })).passwordHash).toBeNull();
  });

  test("signed in, the invitee sees its pending invitations and accepts one without the link", async () => {
    const { tenant, admin } = await tenantWithMembers("Waiting Room Co");
    const other = await tenantWithMembers();
    const invitee = await createUser({ password: "their-own-password" });
    const { invitation, token } = await invite(tenant.id, admin.token, invitee.email, "admin");
    await invite(other.tenant.id, other.admin.token, newEmail());

    const own = client(servers.api.url, await createToken(invitee.id));
    const mine = await own.get("/api/v1/me/invitations");
    expect(mine.status, mine.text).toBe(200);
    expect(mine.json).toMatchObject({ count: 1, next: null, previous: null });
    expect(mine.json.results).toEqual([
      {
        id: invitation.id,
        tenant_id: tenant.id,
        tenant_name: "Waiting Room Co",
        role: "admin",
        invited_by_email: admin.user.email,
        expires_at: invitation.expires_at,
        created_at: invitation.created_at,
      },
    ]);
    // Nobody else sees it, nor accepts it: 404 as for an unknown id.
    const stranger = client(servers.api.url, await createToken(other.admin.user.id));
    expect((await stranger.get("/api/v1/me/invitations")).json.count).toBe(0);
    expect((await stranger.post(`/api/v1/me/invitations/${invitation.id}/accept`)).status).toBe(404);
    expect((await own.post("/api/v1/me/invitations/not-a-uuid/accept")).status).toBe(404);
    // Tokens made for less than the whole account.
    const scoped = client(servers.api.url, await createToken(invitee.id, { tenantId: other.tenant.id }));
    expect((await scoped.get("/api/v1/me/invitations")).status).toBe(403);
    expect((await scoped.post(`/api/v1/me/invitations/${invitation.id}/accept`)).status).toBe(403);
    const readOnly = client(servers.api.url, await createToken(invitee.id, { readOnly: true }));
    expect((await readOnly.get("/api/v1/me/invitations")).json.count).toBe(1);
    expect((await readOnly.post(`/api/v1/me/invitations/${invitation.id}/accept`)).status).toBe(403);

    const accepted = await own.post(`/api/v1/me/invitations/${invitation.id}/accept`);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json).toEqual({ tenant_id: tenant.id, user_id: invitee.id, email: invitee.email, role: "admin" });
    expect((await own.get("/api/v1/me")).json.memberships).toEqual([
      { tenant_id: tenant.id, tenant_name: "Waiting Room Co", role: "admin" },
    ]);
    expect(await events(tenant.id, "user.created")).toMatchObject([
      { actorId: invitee.id, targetId: invitee.id, details: { email: invitee.email, role: "admin", new_user: false, via: "invitation" } },
    ]);
    expect(await events(tenant.id, "invitation.accepted")).toMatchObject([{ actorId: invitee.id, targetId: invitation.id }]);
    expect(await checkCredentials(await db(), invitee.email, "their-own-password")).not.toBeNull();

    // Once, by either way.
    expect((await own.get("/api/v1/me/invitations")).json.count).toBe(0);
    const again = await own.post(`/api/v1/me/invitations/${invitation.id}/accept`);
    expect(again.status).toBe(404);
    expect(again.json.detail).toMatch(/already been used/);
    expect((await own.post("/api/v1/invitations/accept", { token })).status).toBe(404);
  });

  test("accepting from the list: a member already is 409 and the invitation stays pending; expired is 404", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const invitee = await createUser({ password: "their-own-password" });
    const { invitation } = await invite(tenant.id, admin.token, invitee.email);
    const own = client(servers.api.url, await createToken(invitee.id));
    // In the console too: the session's caller.
    expect((await (await consoleAs(invitee.id)).myInvitations.list({})).results).toMatchObject([{ id: invitation.id }]);
    await (await db()).membership.create({ data: { tenantId: tenant.id, userId: invitee.id, role: "viewer" } });
    const member = await own.post(`/api/v1/me/invitations/${invitation.id}/accept`);
    expect(member.status).toBe(409);
    expect((await (await db()).invitation.findUniqueOrThrow({ where: { id: invitation.id } })).acceptedAt).toBeNull();
    await (await db()).membership.deleteMany({ where: { tenantId: tenant.id, userId: invitee.id } });

    clock.now = () => new Date(servers.realNow().getTime() + 7 * 24 * 3600_000 + 60_000);
    expect((await own.get("/api/v1/me/invitations")).json.count).toBe(0);
    const expired = await own.post(`/api/v1/me/invitations/${invitation.id}/accept`);
    expect(expired.status).toBe(404);
    expect(expired.json.detail).toMatch(/expired/);
  });

  test("409 for a member or a second pending invitation; 400 naming the field", async () => {
    const { tenant, admin, viewer } = await tenantWithMembers();
    const api1 = client(servers.api.url, admin.token);
    const member = await api1.post(`/api/v1/tenants/${tenant.id}/invitations`, { email: viewer.user.email, role: "admin" });
    expect(member.status).toBe(409);
    const email = newEmail();
    await invite(tenant.id, admin.token, email);
    expect((await api1.post(`/api/v1/tenants/${tenant.id}/invitations`, { email, role: "admin" })).status).toBe(409);
    for (const [body, field] of [
      [{ email: "not-an-email", role: "viewer" }, "email"],
      [{ email: "a@b.co", role: "owner" }, "role"],
      // Admins no longer set invitees' passwords: an unknown key is refused.
      [{ email: "a@b.co", role: "viewer", password: "x" }, "body"],
    ] as const) {
      const res = await api1.post(`/api/v1/tenants/${tenant.id}/invitations`, body);
      expect(res.status).toBe(400);
      expect(res.json.errors[0].path).toBe(field);
    }
    expect((await api1.get(`/api/v1/tenants/${tenant.id}/invitations?status=sent`)).json.errors[0].path).toBe("status");
  });

  test("another tenant's invitations are 404; viewers get 403", async () => {
    const a = await tenantWithMembers();
    const b = await tenantWithMembers();
    const { invitation } = await invite(a.tenant.id, a.admin.token, newEmail());
    const asB = client(servers.api.url, b.admin.token);
    expect((await asB.get(`/api/v1/tenants/${a.tenant.id}/invitations`)).status).toBe(404);
    expect((await asB.post(`/api/v1/tenants/${a.tenant.id}/invitations/${invitation.id}/resend`)).status).toBe(404);
    expect((await asB.post(`/api/v1/tenants/${b.tenant.id}/invitations/${invitation.id}/resend`)).status).toBe(404);
    expect((await asB.delete(`/api/v1/tenants/${b.tenant.id}/invitations/${invitation.id}`)).status).toBe(404);
    const asViewer = client(servers.api.url, a.viewer.token);
    expect((await asViewer.get(`/api/v1/tenants/${a.tenant.id}/invitations`)).status).toBe(403);
    expect((await asViewer.post(`/api/v1/tenants/${a.tenant.id}/invitations`, { email: newEmail(), role: "admin" })).status).toBe(403);
    expect((await asViewer.delete(`/api/v1/tenants/${a.tenant.id}/invitations/${invitation.id}`)).status).toBe(403);
    const still = await client(servers.api.url, a.admin.token).get(`/api/v1/tenants/${a.tenant.id}/invitations?status=pending`);
    expect(still.json.results).toMatchObject([{ id: invitation.id }]);
  });
});
