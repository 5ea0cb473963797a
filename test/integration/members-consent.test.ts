/**
 * Issue 21, finding 7: a tenant admin must not reach the users of other tenants through
 * `POST …/members` — neither attach an existing account (the operator, another tenant's admin)
 * without its consent, nor learn whether an email has an account at all.
 */
import { describe, expect, test } from "vitest";
import { client, createToken, createUser, db, operator, tenantWithMembers } from "../support/fixtures.ts";
import { linkIn } from "../support/smtp.ts";
import { mailServers } from "../support/mail-servers.ts";
import { checkCredentials } from "../../server/account/users.ts";

const servers = mailServers();
let n = 0;
const unknownEmail = () => `nobody-${Date.now()}-${++n}@example.com`;

const membersOf = (tenantId: string) => `/api/v1/tenants/${tenantId}/members`;
const isMember = async (tenantId: string, userId: string) => (await (await db()).membership.count({ where: { tenantId, userId } })) === 1;

/** Identifiers, times and hashes differ between any two answers; they are not what may tell accounts apart. */
const VARYING = new Set(["id", "target_id", "request_id", "created_at", "expires_at", "timestamp", "hash", "prev_hash"]);

/** `value` with each of `names` replaced by its placeholder and the varying fields blanked. */
function normalized(value: unknown, names: Record<string, string>): unknown {
  if (typeof value === "string") return Object.entries(names).reduce((s, [name, as]) => s.split(name).join(as), value);
  if (Array.isArray(value)) return value.map((v) => normalized(v, names));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, VARYING.has(k) ? `<${k}>` : normalized(v, names)]));
  return value;
}

/**
 * Everything the admin of a fresh tenant sees after adding `email` (and trying again, and with a
 * password): each answer's status, headers and body, the tenant's pending invitations, its audit
 * log, and the invitation mail; with the tenant's own names and the email made placeholders.
 */
async function whatTheTenantSees(email: string) {
  const { tenant, admin } = await tenantWithMembers("Consent Co");
  const api = client(servers.api.url, admin.token);
  const answer = async (body: object) => {
    const res = await api.post(membersOf(tenant.id), body);
    return { status: res.status, location: res.headers.get("location"), type: res.headers.get("content-type"), body: res.json };
  };
  const first = await answer({ email, role: "viewer" });
  const again = await answer({ email, role: "admin" });
  const withPassword = await answer({ email, role: "viewer", password: "chosen-by-admin" });
  const invitations = (await api.get(`/api/v1/tenants/${tenant.id}/invitations`)).json;
  const log = (await api.get(`/api/v1/tenants/${tenant.id}/audit`)).json;
  const mail = await servers.smtp.waitFor(email);
  const names = {
    [linkIn(mail, "/invite").token]: "<token>",
    [new Date(first.body?.expires_at).toUTCString()]: "<expiry>",
    [tenant.id]: "<tenant>",
    [admin.user.id]: "<admin>",
    [admin.user.email]: "<admin-email>",
    [email]: "<email>",
  };
  return normalized({ first, again, withPassword, invitations, log, mail: { subject: mail.subject, text: mail.text } }, names);
}

describe("POST …/members never attaches an existing account", () => {
  test("a tenant admin adding the platform operator by email only invites them: not a member, nothing changed", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const op = await operator();
    const res = await client(servers.api.url, admin.token).post(membersOf(tenant.id), { email: op.user.email, role: "admin" });
    expect(res.status, res.text).toBe(202);
    expect(res.json).toMatchObject({ email: op.user.email, role: "admin", status: "pending", invited_by: admin.user.id });
    expect(res.json.user_id).toBeUndefined();
    expect(await isMember(tenant.id, op.user.id)).toBe(false);
    const me = await client(servers.api.url, op.token).get("/api/v1/me");
    expect(me.json.memberships).toEqual([]);
    const log = await (await db()).auditEvent.findMany({ where: { tenantId: tenant.id } });
    expect(log.map((e) => e.eventType)).toEqual(["invitation.created"]);
  });

  test("another tenant's admin is invited, and joins only by accepting while signed in as themselves", async () => {
    const a = await tenantWithMembers();
    const b = await tenantWithMembers();
    const res = await client(servers.api.url, a.admin.token).post(membersOf(a.tenant.id), { email: b.admin.user.email, role: "admin" });
    expect(res.status, res.text).toBe(202);
    expect(await isMember(a.tenant.id, b.admin.user.id)).toBe(false);
    // Nor does A reach B's admin through A's member endpoints.
    const asA = client(servers.api.url, a.admin.token);
    expect((await asA.get(`${membersOf(a.tenant.id)}/${b.admin.user.id}`)).status).toBe(404);
    expect((await asA.patch(`${membersOf(a.tenant.id)}/${b.admin.user.id}`, { role: "viewer" })).status).toBe(404);

    const { token } = linkIn(await servers.smtp.waitFor(b.admin.user.email), "/invite");
    const anonymous = await client(servers.api.url).post("/api/v1/invitations/accept", { token, password: "taken-over-1" });
    expect(anonymous.status).toBe(401);
    expect(await checkCredentials(await db(), b.admin.user.email, "admin-password")).not.toBeNull();
    const accepted = await client(servers.api.url, b.admin.token).post("/api/v1/invitations/accept", { token });
    expect(accepted.status, accepted.text).toBe(200);
    expect(await isMember(a.tenant.id, b.admin.user.id)).toBe(true);
  });

  test("operators too: an existing account is invited (202), only a new email is added at once (201)", async () => {
    const { tenant } = await tenantWithMembers();
    const op = client(servers.api.url, (await operator()).token);
    const existing = await createUser({ password: "their-own-password" });
    const invited = await op.post(membersOf(tenant.id), { email: existing.email, role: "viewer", password: "operator-chosen" });
    expect(invited.status, invited.text).toBe(202);
    expect(invited.headers.get("location")).toBeNull();
    expect(await isMember(tenant.id, existing.id)).toBe(false);
    expect(await checkCredentials(await db(), existing.email, "their-own-password")).not.toBeNull();
    const added = await op.post(membersOf(tenant.id), { email: unknownEmail(), role: "viewer" });
    expect(added.status, added.text).toBe(201);
    expect(await isMember(tenant.id, added.json.user_id)).toBe(true);
  });

  test("a tenant admin cannot create an account: a new email is invited too, and a password or name is 403", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const api = client(servers.api.url, admin.token);
    const email = unknownEmail();
    for (const extra of [{ password: "chosen-by-admin" }, { name: "Chosen By Admin" }]) {
      const res = await api.post(membersOf(tenant.id), { email, role: "viewer", ...extra });
      expect(res.status).toBe(403);
      expect(res.json.detail).toMatch(/Only platform operators set a new member's (password|name)/);
    }
    expect((await api.post(membersOf(tenant.id), { email, role: "viewer" })).status).toBe(202);
    expect(await (await db()).user.count({ where: { email } })).toBe(0);
  });
});

describe("POST …/members tells no tenant whether an email has an account", () => {
  test("an existing account (another tenant's admin) and an unknown email get the same answers, log, invitations and mail", async () => {
    const other = await tenantWithMembers();
    const existing = await whatTheTenantSees(other.admin.user.email);
    const unknown = await whatTheTenantSees(unknownEmail());
    expect(existing).toEqual(unknown);
    // And what they are: the invitation, then the 409 of a pending one, then the 403 for a password.
    expect(existing).toMatchObject({
      first: { status: 202, location: null, body: { email: "<email>", status: "pending", email_sent: true } },
      again: { status: 409, type: "application/problem+json" },
      withPassword: { status: 403 },
      log: { count: 1, results: [{ event_type: "invitation.created" }] },
    });
  });

  test("the platform operator's email is no different", async () => {
    const op = await operator();
    expect(await whatTheTenantSees(op.user.email)).toEqual(await whatTheTenantSees(unknownEmail()));
  });

  test("a token of the other tenant's admin shows no trace of the invitation there", async () => {
    const a = await tenantWithMembers();
    const b = await tenantWithMembers();
    await client(servers.api.url, a.admin.token).post(membersOf(a.tenant.id), { email: b.admin.user.email, role: "viewer" });
    const asB = client(servers.api.url, await createToken(b.admin.user.id));
    expect((await asB.get(`/api/v1/tenants/${b.tenant.id}/audit`)).json.count).toBe(0);
    expect((await asB.get("/api/v1/me")).json.memberships).toEqual([{ tenant_id: b.tenant.id, tenant_name: b.tenant.name, role: "admin" }]);
  });
});

describe("PATCH …/members/{user_id} `name` is the tenant's own name for the member", () => {
  test("renaming a member who also belongs to another tenant changes neither their account nor the other tenant's view", async () => {
    const a = await tenantWithMembers();
    const b = await tenantWithMembers();
    const prisma = await db();
    // B's admin joined A too (as if by accepting an invitation), with a name of their own.
    await prisma.user.update({ where: { id: b.admin.user.id }, data: { name: "Bea Own-Name" } });
    await prisma.membership.create({ data: { tenantId: a.tenant.id, userId: b.admin.user.id, role: "viewer" } });

    const asA = client(servers.api.url, a.admin.token);
    const renamed = await asA.patch(`${membersOf(a.tenant.id)}/${b.admin.user.id}`, { name: "Renamed By A" });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json.name).toBe("Renamed By A");
    expect((await asA.get(`${membersOf(a.tenant.id)}/${b.admin.user.id}`)).json.name).toBe("Renamed By A");

    const asB = client(servers.api.url, b.admin.token);
    expect((await asB.get(`${membersOf(b.tenant.id)}/${b.admin.user.id}`)).json.name).toBe("Bea Own-Name");
    expect((await asB.get("/api/v1/me")).json.user.name).toBe("Bea Own-Name");
    expect((await prisma.user.findUniqueOrThrow({ where: { id: b.admin.user.id } })).name).toBe("Bea Own-Name");

    // Recorded where it happened, the one tenant that shows it; nothing happened in B.
    const updated = await prisma.auditEvent.findMany({ where: { tenantId: a.tenant.id, eventType: "user.updated" } });
    expect(updated).toMatchObject([
      { actorId: a.admin.user.id, targetId: b.admin.user.id, details: { changes: { name: { from: "Bea Own-Name", to: "Renamed By A" } } } },
    ]);
    expect(await prisma.auditEvent.count({ where: { tenantId: b.tenant.id } })).toBe(0);
  });

  test("renaming the platform operator, a member by choice, leaves their account's name alone", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const op = await operator();
    const prisma = await db();
    await prisma.user.update({ where: { id: op.user.id }, data: { name: "Olga Operator" } });
    await prisma.membership.create({ data: { tenantId: tenant.id, userId: op.user.id, role: "viewer" } });
    const res = await client(servers.api.url, admin.token).patch(`${membersOf(tenant.id)}/${op.user.id}`, { name: "Not Olga" });
    expect(res.status, res.text).toBe(200);
    expect((await client(servers.api.url, op.token).get("/api/v1/me")).json.user.name).toBe("Olga Operator");
    const users = await client(servers.api.url, op.token).get(`/api/v1/users?search=${op.user.id}`);
    expect(users.json.results).toMatchObject([{ id: op.user.id, name: "Olga Operator" }]);
  });

  test("a member of this tenant alone is renamed here as before; the same name again changes nothing", async () => {
    const { tenant, admin, viewer } = await tenantWithMembers();
    const asAdmin = client(servers.api.url, admin.token);
    const path = `${membersOf(tenant.id)}/${viewer.user.id}`;
    expect((await asAdmin.patch(path, { name: "Vic Viewer" })).json.name).toBe("Vic Viewer");
    expect((await asAdmin.get(membersOf(tenant.id))).json.results).toEqual(
      expect.arrayContaining([expect.objectContaining({ user_id: viewer.user.id, name: "Vic Viewer" })]),
    );
    expect((await asAdmin.patch(path, { name: "Vic Viewer" })).status).toBe(200);
    expect(await (await db()).auditEvent.count({ where: { tenantId: tenant.id, eventType: "user.updated" } })).toBe(1);
  });
});
