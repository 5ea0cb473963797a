/**
 * With no mail server (SMTP_URL unset, a fresh local install): an invitation's mail is written under
 * DATA_DIR/mail/, with a plain-text copy whose link can be copied as it is, and the reply says the
 * mail was not sent and hands the inviting admin the link to pass on — for an email with no account
 * only. An account that exists is only ever joined by its owner (issue 38: the link handed to
 * tenant A's admin set the password of tenant B's password-less admin, and A signed in as them).
 */
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { encode } from "next-auth/jwt";
import { client, createUser, db, tenantWithMembers, verifiedDomains } from "../support/fixtures.ts";
import { codeOf, consoleAs, consoleCaller } from "../support/console-caller.ts";
import { checkCredentials } from "../../server/account/users.ts";
import { startSession } from "../../server/auth/sessions.ts";
import { database } from "../../server/db/client.ts";

delete process.env.SMTP_URL;
const dataDir = await mkdtemp(path.join(tmpdir(), "cp-mail-"));
process.env.DATA_DIR = dataDir;

const api = apiServer();
let n = 0;
const newEmail = () => `local-${Date.now()}-${++n}@example.com`;

/** The plain-text mail written for `email` (the one file naming it), and the invitation link in it. */
async function writtenMail(email: string): Promise<{ text: string; link: string; eml: string[] }> {
  const dir = path.join(dataDir, "mail");
  const files = await readdir(dir);
  const texts = await Promise.all(files.filter((f) => f.endsWith(".txt")).map((f) => readFile(path.join(dir, f), "utf8")));
  const mine = texts.filter((text) => text.startsWith(`To: ${email}\n`));
  expect(mine).toHaveLength(1);
  const link = /^(https?:\/\/\S+\/invite#token=\S+)$/m.exec(mine[0]!)?.[1];
  expect(link, mine[0]).toBeDefined();
  return { text: mine[0]!, link: link!, eml: files.filter((f) => f.endsWith(".eml")) };
}

const tokenOf = (link: string) => decodeURIComponent(new URL(link).hash.replace(/^#token=/, ""));

test("an invitation is written to a readable file whose link opens it; the reply says it was not sent and carries the link", async () => {
  const { tenant, admin } = await tenantWithMembers();
  const email = newEmail();
  const res = await client(api.url, admin.token).post(`/api/v1/tenants/${tenant.id}/invitations`, { email, role: "viewer" });
  expect(res.status, res.text).toBe(201);
  expect(res.json).toMatchObject({
    email,
    status: "pending",
    email_sent: false,
    link: expect.stringMatching(/\/invite#token=/),
    accept_by: "link",
  });

  const written = await writtenMail(email);
  expect(written.text).toContain(`Subject: You are invited to ${tenant.name} on Control Plane`);
  expect(written.link).toBe(res.json.link);
  expect(written.eml.length).toBeGreaterThan(0);
  const preview = await client(api.url).post("/api/v1/invitations/lookup", { token: tokenOf(written.link) });
  expect(preview.status, preview.text).toBe(200);
  expect(preview.json).toMatchObject({ tenant_id: tenant.id, email });
  expect(preview.json.needs_password).toBeUndefined();

  // The link creates the account.
  const accepted = await client(api.url).post("/api/v1/invitations/accept", { token: tokenOf(written.link), password: "local-password-1" });
  expect(accepted.status, accepted.text).toBe(200);
  expect(await checkCredentials(await db(), email, "local-password-1")).not.toBeNull();
});

const isMember = async (tenantId: string, userId: string) => (await (await db()).membership.count({ where: { tenantId, userId } })) === 1;

/** Tenant B, whose admin has no password (made by B's SSO or directory, or an operator without one). */
async function tenantWithPasswordlessAdmin() {
  const b = await tenantWithMembers();
  const admin = await createUser({ email: `sso-admin-${Date.now()}-${++n}@example.com` });
  await (await db()).membership.create({ data: { tenantId: b.tenant.id, userId: admin.id, role: "admin" } });
  return { tenant: b.tenant, admin };
}

test("another tenant's password-less admin is not taken over: no link for A, and the mailed link sets no password", async () => {
  const a = await tenantWithMembers();
  const b = await tenantWithPasswordlessAdmin();
  const res = await client(api.url, a.admin.token).post(`/api/v1/tenants/${a.tenant.id}/invitations`, {
    email: b.admin.email,
    role: "admin",
  });
  expect(res.status, res.text).toBe(201);
  expect(res.json).toMatchObject({ email: b.admin.email, status: "pending", email_sent: false, link: null, accept_by: "sign_in" });

  // Whoever reads the server's mail folder holds the link: it still sets no password.
  const token = tokenOf((await writtenMail(b.admin.email)).link);
  const preview = await client(api.url).post("/api/v1/invitations/lookup", { token });
  expect(preview.status).toBe(200);
  expect(preview.json.needs_password).toBeUndefined();
  const anonymous = await client(api.url).post("/api/v1/invitations/accept", { token, password: "taken-over-1" });
  expect(anonymous.status).toBe(401);
  expect(anonymous.json.detail).toBe(`Sign in as ${b.admin.email} to accept this invitation`);
  expect((await (await db()).user.findUniqueOrThrow({ where: { id: b.admin.id } })).passwordHash).toBeNull();
  expect(await checkCredentials(await db(), b.admin.email, "taken-over-1")).toBeNull();
  expect(await isMember(a.tenant.id, b.admin.id)).toBe(false);
  // Resending answers the same.
  const resent = await client(api.url, a.admin.token).post(`/api/v1/tenants/${a.tenant.id}/invitations/${res.json.id}/resend`);
  expect(resent.json).toMatchObject({ email_sent: false, link: null, accept_by: "sign_in" });
});

test("an account with a password gets no link either; signed in, it accepts from its own invitations", async () => {
  const a = await tenantWithMembers();
  const b = await tenantWithMembers();
  const res = await client(api.url, a.admin.token).post(`/api/v1/tenants/${a.tenant.id}/invitations`, {
    email: b.admin.user.email,
    role: "viewer",
  });
  expect(res.json).toMatchObject({ link: null, accept_by: "sign_in" });
  const asB = client(api.url, b.admin.token);
  const mine = await asB.get("/api/v1/me/invitations");
  expect(mine.json.results).toMatchObject([{ id: res.json.id, tenant_id: a.tenant.id, tenant_name: a.tenant.name, role: "viewer" }]);
  expect((await asB.post(`/api/v1/me/invitations/${res.json.id}/accept`)).status).toBe(200);
  expect(await isMember(a.tenant.id, b.admin.user.id)).toBe(true);
  expect(await checkCredentials(await db(), b.admin.user.email, "admin-password")).not.toBeNull();
});

test("a password-less account signed in through its tenant's SSO may accept another tenant's invitation, which that session does not reach", async () => {
  const a = await tenantWithMembers();
  const b = await tenantWithPasswordlessAdmin();
  const res = await client(api.url, a.admin.token).post(`/api/v1/tenants/${a.tenant.id}/invitations`, {
    email: b.admin.email,
    role: "viewer",
  });
  const sid = await startSession((await database()).sql, {
    userId: b.admin.id,
    ssoTenantId: b.tenant.id,
    request: { ip: null, userAgent: "vitest" },
  });
  const cookie = `next-auth.session-token=${await encode({ token: { sub: b.admin.id, sid }, secret: process.env.NEXTAUTH_SECRET! })}`;
  const sso = await consoleCaller(cookie);
  expect((await sso.myInvitations.list({})).results).toMatchObject([{ id: res.json.id, tenant_name: a.tenant.name }]);
  expect(await sso.myInvitations.accept({ invitation_id: res.json.id })).toMatchObject({ tenant_id: a.tenant.id, role: "viewer" });
  expect(await isMember(a.tenant.id, b.admin.id)).toBe(true);
  // The SSO session still reaches B only.
  expect((await sso.account.me({})).memberships).toEqual([{ tenant_id: b.tenant.id, tenant_name: b.tenant.name, role: "admin" }]);
  expect(await codeOf(sso.members.list({ tenant_id: a.tenant.id }))).toBe("NOT_FOUND");
  expect((await (await db()).user.findUniqueOrThrow({ where: { id: b.admin.id } })).passwordHash).toBeNull();
});

test("an email in another tenant's verified domain gets no link, and its mailed link creates no account", async () => {
  const a = await tenantWithMembers();
  const b = await tenantWithMembers();
  const domain = `claimed-${Date.now()}-${++n}.example.com`;
  await verifiedDomains(b.tenant.id, [domain]);
  const email = `future-sso-user@${domain}`;
  const res = await client(api.url, a.admin.token).post(`/api/v1/tenants/${a.tenant.id}/invitations`, { email, role: "admin" });
  expect(res.status, res.text).toBe(201);
  expect(res.json).toMatchObject({ email_sent: false, link: null, accept_by: "sign_in" });
  const token = tokenOf((await writtenMail(email)).link);
  const accept = await client(api.url).post("/api/v1/invitations/accept", { token, password: "pre-hijacked-1" });
  expect(accept.status).toBe(403);
  expect(accept.json.detail).toMatch(/belongs to another organisation's domain/);
  expect(await (await db()).user.count({ where: { email } })).toBe(0);

  // A link handed out before the domain was verified there creates no account after.
  const later = `later-${Date.now()}-${++n}.example.com`;
  const early = await client(api.url, a.admin.token).post(`/api/v1/tenants/${a.tenant.id}/invitations`, {
    email: `early@${later}`,
    role: "admin",
  });
  expect(early.json).toMatchObject({ accept_by: "link", link: expect.stringMatching(/\/invite#token=/) });
  await verifiedDomains(b.tenant.id, [later]);
  const tooLate = await client(api.url).post("/api/v1/invitations/accept", { token: tokenOf(early.json.link), password: "pre-hijacked-2" });
  expect(tooLate.status).toBe(403);
  expect(await (await db()).user.count({ where: { email: `early@${later}` } })).toBe(0);

  // The domain's own tenant inviting its people is handed the link as for any new email.
  const own = await client(api.url, b.admin.token).post(`/api/v1/tenants/${b.tenant.id}/invitations`, {
    email: `colleague@${domain}`,
    role: "viewer",
  });
  expect(own.json).toMatchObject({ link: expect.stringMatching(/\/invite#token=/), accept_by: "link" });
});

test("resending (the console's Copy link) hands over a new link that works; the previous one stops", async () => {
  const { tenant, admin } = await tenantWithMembers();
  const api1 = client(api.url, admin.token);
  const first = await api1.post(`/api/v1/tenants/${tenant.id}/invitations`, { email: newEmail(), role: "admin" });
  const resent = await api1.post(`/api/v1/tenants/${tenant.id}/invitations/${first.json.id}/resend`);
  expect(resent.status, resent.text).toBe(200);
  expect(resent.json).toMatchObject({ email_sent: false, link: expect.stringMatching(/\/invite#token=/), accept_by: "link" });
  expect(resent.json.link).not.toBe(first.json.link);
  const lookup = (link: string) => client(api.url).post("/api/v1/invitations/lookup", { token: tokenOf(link) });
  expect((await lookup(first.json.link)).status).toBe(404);
  expect((await lookup(resent.json.link)).status).toBe(200);
});

test("the console learns that no mail server is configured (tenant admins only)", async () => {
  const { tenant, admin, viewer } = await tenantWithMembers();
  expect(await (await consoleAs(admin.user.id)).invitations.delivery({ tenant_id: tenant.id })).toEqual({ mail_server: false });
  expect(await codeOf((await consoleAs(viewer.user.id)).invitations.delivery({ tenant_id: tenant.id }))).toBe("FORBIDDEN");
});
