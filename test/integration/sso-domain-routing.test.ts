/**
 * Domains route SSO sign-ins only when their tenant verified them (issue 22, item 2; the review's
 * most severe finding): any tenant admin could list someone else's email domain on a provider,
 * route that domain's sign-ins to an IdP of their choosing and sign in as its existing users. Now
 * an enabled provider's domains must be verified domains of its tenant, sign-in refuses an address
 * whose domain is not (or no longer) verified, and a person who is not yet a member joins only
 * through a verified domain with auto-join on. Domains providers routed before verification existed
 * keep routing while pending, until they fail. Against a real OpenID Provider on loopback.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, createUser, db, operator, tenantWithMembers, verifiedDomains } from "../support/fixtures.ts";
import { startOidcOp, type TestOp } from "../support/oidc-op.ts";
import { TestBrowser } from "../support/browser.ts";
import { eventsOf, oidcProvider, pathOf, signIn, uniqueDomain } from "../support/sso-signin.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";
import { openPglite } from "../../server/db/client.ts";
import { migrate } from "../../server/db/migrate.ts";
import { migrationsBefore } from "../support/migrations.ts";

const api = apiServer({ appUrl: true });
let op: TestOp;
beforeAll(async () => {
  op = await startOidcOp();
});
afterAll(async () => {
  await metadataChecksIdle();
  await op.close();
});

function person(domain: string) {
  const sub = `sub-${randomUUID().slice(0, 8)}`;
  const email = `${sub}@${domain}`;
  op.accounts.set(sub, { sub, email, email_verified: true, given_name: "Ada", family_name: "Lovelace" });
  return { sub, email };
}

const setDomain = async (tenantId: string, domain: string, fields: string) =>
  (await db()).$executeRawUnsafe(`UPDATE domains SET ${fields} WHERE tenant_id = $1::uuid AND domain = $2`, tenantId, domain);

describe("an enabled provider routes only its tenant's verified domains", () => {
  test("create, enable and new domains are a 400 naming each unverified domain; a disabled provider may list them", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const rest = client(api.url, admin.token);
    const base = `/api/v1/tenants/${tenant.id}/sso`;
    const [verified, pending, stranger] = [uniqueDomain(), uniqueDomain(), uniqueDomain()];
    await verifiedDomains(tenant.id, [verified]);
    expect((await rest.post(`/api/v1/tenants/${tenant.id}/domains`, { domain: pending })).status).toBe(201);

    const body = { provider_type: "oidc", name: "OP", metadata_url: op.discoveryUrl, client_id: "c", client_secret: "s" };
    const refused = await rest.post(base, { ...body, domains: [verified, pending, stranger] });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toEqual([
      { path: "domains.1", message: "is not a verified domain of this tenant" },
      { path: "domains.2", message: "is not a verified domain of this tenant" },
    ]);
    expect((await rest.get(base)).json.results).toEqual([]);

    const off = await rest.post(base, { ...body, domains: [verified, pending], enabled: false });
    expect(off.status).toBe(201);
    const enable = await rest.patch(`${base}/${off.json.id}`, { enabled: true });
    expect(enable.status).toBe(400);
    // Named by its place in the provider's domains (a PATCH without `domains` keeps the stored ones).
    const at = (off.json.domains as string[]).indexOf(pending);
    expect(enable.json.errors).toEqual([{ path: `domains.${at}`, message: "is not a verified domain of this tenant" }]);

    await verifiedDomains(tenant.id, [pending]);
    expect((await rest.patch(`${base}/${off.json.id}`, { enabled: true })).status).toBe(200);
  });

  test("the attack: a tenant lists another's domain; no provider of it routes that domain, and the real owner's does", async () => {
    const victim = await tenantWithMembers();
    const attacker = await tenantWithMembers();
    const domain = uniqueDomain();
    const existing = await createUser({ email: `cfo@${domain}` });
    // The attacker may add the domain (pending) but not verify it without the DNS record, so no
    // enabled provider of theirs may route it.
    const attackerRest = client(api.url, attacker.admin.token);
    expect((await attackerRest.post(`/api/v1/tenants/${attacker.tenant.id}/domains`, { domain })).status).toBe(201);
    const claim = await attackerRest.post(`/api/v1/tenants/${attacker.tenant.id}/sso`, {
      provider_type: "oidc",
      name: "Evil OP",
      metadata_url: op.discoveryUrl,
      domains: [domain],
      client_id: "evil",
      client_secret: "evil",
    });
    expect(claim.status).toBe(400);

    // The owner verifies it: their provider routes it, and the attacker can no longer verify it.
    const { providerId } = await oidcProvider(api.url, victim.admin.token, victim.tenant.id, op, { domains: [domain], autoJoin: false });
    const [attackersDomain] = (await attackerRest.get(`/api/v1/tenants/${attacker.tenant.id}/domains`)).json.results;
    const override = await client(api.url, (await operator()).token).post(
      `/api/v1/tenants/${attacker.tenant.id}/domains/${attackersDomain.id}/verify`,
      { override: true, reason: "test" },
    );
    expect(override.status).toBe(409);
    const cfo = { sub: `sub-${randomUUID().slice(0, 8)}`, email: existing.email };
    op.accounts.set(cfo.sub, { sub: cfo.sub, email: cfo.email, email_verified: true });
    await (await db()).membership.create({ data: { tenantId: victim.tenant.id, userId: existing.id, role: "viewer" } });
    expect(pathOf((await signIn(new TestBrowser(), api.url, op.origin, cfo.email)).location)).toBe(`/tenants/${victim.tenant.id}`);
    const logins = await eventsOf(victim.tenant.id, "user.login");
    expect(logins.map((e) => (e.details as { provider_id?: string }).provider_id)).toContain(providerId);
  });
});

describe("sign-in through a domain that is not (or no longer) verified", () => {
  test("a verified domain that later fails stops routing; the IdP's answer for it is refused too", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const domain = uniqueDomain();
    const { providerId } = await oidcProvider(api.url, admin.token, tenant.id, op, { domains: [domain] });
    const first = person(domain);
    expect(pathOf((await signIn(new TestBrowser(), api.url, op.origin, first.email)).location)).toBe(`/tenants/${tenant.id}`);

    // Its record disappeared: housekeeping marks it failed (server/domains). "Continue with SSO"
    // no longer routes the domain at all.
    await setDomain(tenant.id, domain, "state = 'failed'");
    const refused = await signIn(new TestBrowser(), api.url, op.origin, person(domain).email);
    expect(pathOf(refused.location)).toBe("/login?sso_error=domain_not_verified");

    // A sign-in that reaches the IdP some other way (begun before, IdP-initiated) is refused at
    // the callback, and creates no one.
    await setDomain(tenant.id, domain, "state = 'verified'");
    const browser = new TestBrowser();
    const started = await browser.request(`${api.url}/api/sso/signin`, { form: { email: person(domain).email } });
    const late = person(domain);
    op.accounts.set(late.sub, { sub: late.sub, email: late.email, email_verified: true });
    await setDomain(tenant.id, domain, "state = 'failed'");
    const { next } = await browser.follow(started, (url) => url.origin === op.origin);
    const done = await browser.request(next!);
    expect(pathOf(done.location)).toBe("/login?sso_error=domain_not_verified");
    const failures = await eventsOf(tenant.id, "sso.login_failed");
    expect(failures.map((e) => (e.details as { reason: string }).reason)).toContain("domain_not_verified");
    expect(failures.at(-1)?.targetId).toBe(providerId);
  });
});

describe("auto-join", () => {
  test("off: members sign in, anyone else is refused (not_a_member) and joins nothing; on: they join", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const domain = uniqueDomain();
    await oidcProvider(api.url, admin.token, tenant.id, op, { domains: [domain], autoJoin: false });
    const member = person(domain);
    const invitedUser = await createUser({ email: member.email });
    await (await db()).membership.create({ data: { tenantId: tenant.id, userId: invitedUser.id, role: "viewer" } });
    expect(pathOf((await signIn(new TestBrowser(), api.url, op.origin, member.email)).location)).toBe(`/tenants/${tenant.id}`);

    const stranger = person(domain);
    const refused = await signIn(new TestBrowser(), api.url, op.origin, stranger.email);
    expect(pathOf(refused.location)).toBe("/login?sso_error=not_a_member");
    expect(await (await db()).user.findUnique({ where: { email: stranger.email } })).toBeNull();

    const rest = client(api.url, admin.token);
    const [row] = (await rest.get(`/api/v1/tenants/${tenant.id}/domains`)).json.results;
    expect(row).toMatchObject({ domain, state: "verified", routes_sign_ins: true, auto_join: false });
    const on = await rest.patch(`/api/v1/tenants/${tenant.id}/domains/${row.id}`, { auto_join: true });
    expect(on.status, on.text).toBe(200);
    expect(on.json.auto_join).toBe(true);
    expect((await eventsOf(tenant.id, "domain.updated")).map((e) => e.details)).toEqual([
      { domain, changes: { auto_join: { from: false, to: true } } },
    ]);
    expect(pathOf((await signIn(new TestBrowser(), api.url, op.origin, stranger.email)).location)).toBe(`/tenants/${tenant.id}`);
    const joined = await (await db()).user.findUniqueOrThrow({ where: { email: stranger.email }, include: { memberships: true } });
    expect(joined.memberships.map((m) => [m.tenantId, m.role])).toEqual([[tenant.id, "viewer"]]);
  });

  test("only a verified domain may turn it on (400 naming auto_join); a viewer may not (403)", async () => {
    const { tenant, admin, viewer } = await tenantWithMembers();
    const rest = client(api.url, admin.token);
    const added = await rest.post(`/api/v1/tenants/${tenant.id}/domains`, { domain: uniqueDomain() });
    const one = `/api/v1/tenants/${tenant.id}/domains/${added.json.id}`;
    expect(added.json).toMatchObject({ routes_sign_ins: false, auto_join: false });
    const refused = await rest.patch(one, { auto_join: true });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toEqual([{ path: "auto_join", message: "needs a verified domain" }]);
    expect((await client(api.url, viewer.token).patch(one, { auto_join: true })).status).toBe(403);
    expect((await rest.patch(one, { auto_join: "yes" })).json.errors[0].path).toBe("auto_join");
  });
});

describe("providers from before domains were verified", () => {
  test("the upgrade makes their domains pending domains of the tenant that keep routing (and joining) until they fail", async () => {
    const dbDir = mkdtempSync(path.join(tmpdir(), "cp-routing-"));
    const lite = await openPglite(dbDir);
    try {
      await migrate(lite.sql, migrationsBefore("20261129080000_domains_route_sign_ins"));
      const [tenant] = await lite.sql.query<{ id: string }>(`INSERT INTO tenants (name) VALUES ('Before') RETURNING id`);
      const [provider] = await lite.sql.query<{ id: string }>(
        `INSERT INTO sso_providers (tenant_id, provider_type, protocol, name, metadata_url, updated_at)
         VALUES ($1::uuid, 'saml', 'saml', 'Old', 'https://idp.example/saml.xml', now()) RETURNING id`,
        [tenant!.id],
      );
      await lite.sql.query(
        `INSERT INTO sso_domains (tenant_id, provider_id, domain, enabled) VALUES ($1::uuid, $2::uuid, 'old.example', true)`,
        [tenant!.id, provider!.id],
      );
      await migrate(lite.sql);
      const rows = await lite.sql.query(`SELECT domain, state, auto_join, routes_while_pending FROM domains WHERE tenant_id = $1::uuid`, [
        tenant!.id,
      ]);
      expect(rows).toEqual([{ domain: "old.example", state: "pending", auto_join: true, routes_while_pending: true }]);
    } finally {
      await lite.close();
    }
  }, 120_000);

  test("a pending legacy domain routes its members' sign-ins, makes no one new a member; once failed it routes none", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const domain = uniqueDomain();
    await verifiedDomains(tenant.id, [domain], { legacy: true });
    await oidcProvider(api.url, admin.token, tenant.id, op, { domains: [domain], verified: false });
    const member = person(domain);
    const account = await createUser({ email: member.email });
    await (await db()).membership.create({ data: { tenantId: tenant.id, userId: account.id, role: "viewer" } });
    expect(pathOf((await signIn(new TestBrowser(), api.url, op.origin, member.email)).location)).toBe(`/tenants/${tenant.id}`);
    // Someone new would join (auto-join is on): only a verified domain's people are the tenant's to take.
    const newcomer = person(domain);
    expect(pathOf((await signIn(new TestBrowser(), api.url, op.origin, newcomer.email)).location)).toBe(
      "/login?sso_error=domain_not_verified",
    );
    expect(await (await db()).user.findUnique({ where: { email: newcomer.email } })).toBeNull();
    await setDomain(tenant.id, domain, "state = 'failed'");
    expect(pathOf((await signIn(new TestBrowser(), api.url, op.origin, member.email)).location)).toBe(
      "/login?sso_error=domain_not_verified",
    );
  });
});
