/**
 * With no mail server (SMTP_URL unset, a fresh local install): an invitation's mail is written under
 * DATA_DIR/mail/, with a plain-text copy whose link can be copied as it is, and the reply says the
 * mail was not sent and hands the inviting admin the link to pass on.
 */
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, tenantWithMembers } from "../support/fixtures.ts";
import { codeOf, consoleAs } from "../support/console-caller.ts";

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
  expect(res.json).toMatchObject({ email, status: "pending", email_sent: false, link: expect.stringMatching(/\/invite#token=/) });

  const written = await writtenMail(email);
  expect(written.text).toContain(`Subject: You are invited to ${tenant.name} on Control Plane`);
  expect(written.link).toBe(res.json.link);
  expect(written.eml.length).toBeGreaterThan(0);
  const preview = await client(api.url).post("/api/v1/invitations/lookup", { token: tokenOf(written.link) });
  expect(preview.status, preview.text).toBe(200);
  expect(preview.json).toMatchObject({ tenant_id: tenant.id, email, needs_password: true });
});

test("resending (the console's Copy link) hands over a new link that works; the previous one stops", async () => {
  const { tenant, admin } = await tenantWithMembers();
  const api1 = client(api.url, admin.token);
  const first = await api1.post(`/api/v1/tenants/${tenant.id}/invitations`, { email: newEmail(), role: "admin" });
  const resent = await api1.post(`/api/v1/tenants/${tenant.id}/invitations/${first.json.id}/resend`);
  expect(resent.status, resent.text).toBe(200);
  expect(resent.json).toMatchObject({ email_sent: false, link: expect.stringMatching(/\/invite#token=/) });
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
