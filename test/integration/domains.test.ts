/**
 * Verified domains over REST, against a real DNS server on loopback (test/support/dns-server.ts)
 * that the app reaches through DNS_SERVERS.
 */
import { domainToASCII } from "node:url";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, db, operator, tenantWithMembers } from "../support/fixtures.ts";
import { startDns } from "../support/dns-server.ts";
import { dnsSettings } from "../../server/domains/dns.ts";

const dns = await startDns();
process.env.DNS_SERVERS = dns.address;
const api = apiServer();
afterAll(() => dns.close());
const defaultTimeout = dnsSettings.timeoutMs;
afterEach(() => {
  dnsSettings.timeoutMs = defaultTimeout;
});

let counter = 0;
/** A domain no other test uses. */
const freshDomain = () => `d${Date.now().toString(36)}${counter++}.example.com`;
const recordOf = (domain: string) => `_control-plane-verification.${domain}`;
const base = (tenantId: string) => `/api/v1/tenants/${tenantId}/domains`;
const events = async (tenantId: string, type: string) =>
  (await db()).auditEvent.findMany({ where: { tenantId, eventType: type }, orderBy: { sequence: "asc" } });

async function addDomain(tenantId: string, token: string, domain = freshDomain()) {
  const res = await client(api.url, token).post(base(tenantId), { domain });
  expect(res.status).toBe(201);
  return res.json as { id: string; domain: string; verification: { name: string; value: string } };
}

const verify = (tenantId: string, token: string, id: string, body?: unknown) =>
  client(api.url, token).post(`${base(tenantId)}/${id}/verify`, body);

describe("adding a domain", () => {
  test("201 with the TXT record to publish, pending, Location, and domain.created", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const domain = freshDomain();
    const res = await client(api.url, admin.token).post(base(tenant.id), { domain });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe(`${api.url}${base(tenant.id)}/${res.json.id}`);
    expect(res.json).toMatchObject({
      tenant_id: tenant.id,
      domain,
      state: "pending",
      verification: { type: "dns_txt", name: recordOf(domain) },
      verified_at: null,
      last_checked_at: null,
    });
    expect(Object.keys(res.json)).toEqual(
      expect.arrayContaining(["id", "tenant_id", "domain", "state", "verification", "verified_at", "last_checked_at", "created_at"]),
    );
    expect(res.json.verification.value).toMatch(/^control-plane-verification=[0-9a-f]{32}$/);
    const other = await addDomain(tenant.id, admin.token);
    expect(other.verification.value).not.toBe(res.json.verification.value);
    const [created] = await events(tenant.id, "domain.created");
    expect(created).toMatchObject({ targetType: "domain", targetId: res.json.id, targetName: domain });
  });

  test("the domain is normalised: lowercase, punycode, no trailing dot; the same domain again is 409", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const unique = Date.now().toString(36);
    const res = await client(api.url, admin.token).post(base(tenant.id), { domain: ` Bücher-${unique}.Example. ` });
    expect(res.status).toBe(201);
    expect(res.json.domain).toBe(domainToASCII(`bücher-${unique}.example`));
    expect(res.json.domain).toMatch(/^xn--/);
    const again = await client(api.url, admin.token).post(base(tenant.id), { domain: res.json.domain.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.json.errors[0].path).toBe("domain");
    expect(again.json.detail).toContain(res.json.domain);
  });

  test.each([
    ["", "is required"],
    ["localhost", "must have a dot"],
    ["*.example.com", "wildcard"],
    ["192.168.1.10", "IP address"],
    ["0x7f.1", "IP address"],
    ["[::1]", "IP address"],
    ["2001:db8::1", "IP address"],
    ["https://example.com/", "domain name"],
    ["exa mple.com", "domain name"],
    ["-bad.example.com", "domain name"],
    ["a..example.com", "domain name"],
    [`${"a".repeat(64)}.example.com`, "domain name"],
  ])("%j is a 400 naming domain", async (domain, message) => {
    const { tenant, admin } = await tenantWithMembers();
    const res = await client(api.url, admin.token).post(base(tenant.id), { domain });
    expect(res.status).toBe(400);
    expect(res.json.errors[0].path).toBe("domain");
    expect(res.json.errors[0].message).toContain(message);
  });

  test("a number, or no domain at all, is a 400 naming domain", async () => {
    const { tenant, admin } = await tenantWithMembers();
    for (const body of [{ domain: 42 }, {}]) {
      const res = await client(api.url, admin.token).post(base(tenant.id), body);
      expect(res.status).toBe(400);
      expect(res.json.errors[0].path).toBe("domain");
    }
  });
});

describe("verifying through DNS", () => {
  test("pending → verified once the TXT record is published; domain.verified says dns", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const added = await addDomain(tenant.id, admin.token);
    const before = await verify(tenant.id, admin.token, added.id);
    expect(before.status).toBe(200);
    expect(before.json).toMatchObject({ state: "pending", last_check_result: "no_record" });
    expect(before.json.last_checked_at).not.toBeNull();

    dns.records.set(added.verification.name, [["v=spf1 -all"], [added.verification.value]]);
    const res = await verify(tenant.id, admin.token, added.id);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ state: "verified", verification_method: "dns", last_check_result: "match", last_error: null });
    expect(res.json.verified_at).not.toBeNull();
    const [verified] = await events(tenant.id, "domain.verified");
    expect(verified?.details).toMatchObject({ domain: added.domain, method: "dns" });
    expect((await client(api.url, admin.token).get(`${base(tenant.id)}/${added.id}`)).json.state).toBe("verified");
  });

  test("a record in chunks counts once its chunks are joined", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const added = await addDomain(tenant.id, admin.token);
    const value = added.verification.value;
    dns.records.set(added.verification.name, [[value.slice(0, 10), value.slice(10)]]);
    expect((await verify(tenant.id, admin.token, added.id)).json.state).toBe("verified");
  });

  test("a wrong value leaves it pending, saying why", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const added = await addDomain(tenant.id, admin.token);
    dns.records.set(added.verification.name, [["control-plane-verification=someone-else"]]);
    const res = await verify(tenant.id, admin.token, added.id);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ state: "pending", last_check_result: "wrong_value", verified_at: null });
    expect(res.json.last_error).toContain(added.verification.name);
    expect(await events(tenant.id, "domain.verified")).toHaveLength(0);
  });

  test("NXDOMAIN, and a name without TXT records, are no record", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const added = await addDomain(tenant.id, admin.token);
    expect((await verify(tenant.id, admin.token, added.id)).json).toMatchObject({ state: "pending", last_check_result: "no_record" });
    dns.records.set(added.verification.name, []);
    const res = await verify(tenant.id, admin.token, added.id);
    expect(res.json).toMatchObject({ state: "pending", last_check_result: "no_record" });
    expect(res.json.last_error).toContain("No TXT record");
  });

  test("a DNS server that never answers is a transient failure, not a verdict on the record", async () => {
    dnsSettings.timeoutMs = 500;
    const { tenant, admin } = await tenantWithMembers();
    const added = await addDomain(tenant.id, admin.token);
    dns.failing.set(added.verification.name, "silent");
    const started = Date.now();
    const res = await verify(tenant.id, admin.token, added.id);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ state: "pending", last_check_result: "unavailable" });
    expect(res.json.last_error).toContain("timed out");
  });

  test("SERVFAIL is a transient failure too", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const added = await addDomain(tenant.id, admin.token);
    dns.failing.set(added.verification.name, "servfail");
    expect((await verify(tenant.id, admin.token, added.id)).json).toMatchObject({ state: "pending", last_check_result: "unavailable" });
  });
});

describe("one domain, several tenants", () => {
  test("pending in two tenants is allowed; once A verifies it, B cannot verify it (409) nor add it (409 naming it)", async () => {
    const a = await tenantWithMembers();
    const b = await tenantWithMembers();
    const c = await tenantWithMembers();
    const domain = freshDomain();
    const inA = await addDomain(a.tenant.id, a.admin.token, domain);
    const inB = await addDomain(b.tenant.id, b.admin.token, domain);
    dns.records.set(recordOf(domain), [[inA.verification.value], [inB.verification.value]]);
    expect((await verify(a.tenant.id, a.admin.token, inA.id)).json.state).toBe("verified");

    const lost = await verify(b.tenant.id, b.admin.token, inB.id);
    expect(lost.status).toBe(409);
    expect(lost.json.detail).toContain(domain);
    expect((await client(api.url, b.admin.token).get(`${base(b.tenant.id)}/${inB.id}`)).json.state).toBe("pending");

    const add = await client(api.url, c.admin.token).post(base(c.tenant.id), { domain: domain.toUpperCase() });
    expect(add.status).toBe(409);
    expect(add.json.detail).toContain(domain);
    expect(add.json.errors).toEqual([{ path: "domain", message: expect.stringContaining(domain) }]);
  });

  test("two tenants verifying one domain at once: exactly one wins, the other gets 409", async () => {
    for (let round = 0; round < 3; round++) {
      const a = await tenantWithMembers();
      const b = await tenantWithMembers();
      const domain = freshDomain();
      const inA = await addDomain(a.tenant.id, a.admin.token, domain);
      const inB = await addDomain(b.tenant.id, b.admin.token, domain);
      dns.records.set(recordOf(domain), [[inA.verification.value], [inB.verification.value]]);
      const results = await Promise.all([verify(a.tenant.id, a.admin.token, inA.id), verify(b.tenant.id, b.admin.token, inB.id)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const verified = await (await db()).domain.findMany({ where: { domain, state: "verified" } });
      expect(verified).toHaveLength(1);
    }
  });

  test("after the winner deletes it, the other tenant can verify it", async () => {
    const a = await tenantWithMembers();
    const b = await tenantWithMembers();
    const domain = freshDomain();
    const inA = await addDomain(a.tenant.id, a.admin.token, domain);
    const inB = await addDomain(b.tenant.id, b.admin.token, domain);
    dns.records.set(recordOf(domain), [[inA.verification.value], [inB.verification.value]]);
    expect((await verify(a.tenant.id, a.admin.token, inA.id)).status).toBe(200);
    expect((await client(api.url, a.admin.token).delete(`${base(a.tenant.id)}/${inA.id}`)).status).toBe(204);
    expect((await verify(b.tenant.id, b.admin.token, inB.id)).json.state).toBe("verified");
  });
});

describe("the operator override", () => {
  test("an operator marks a domain verified with a reason; the audit log keeps it", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const op = await operator();
    const added = await addDomain(tenant.id, admin.token);
    const res = await verify(tenant.id, op.token, added.id, { override: true, reason: "Checked the registrar by phone" });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ state: "verified", verification_method: "override", next_check_at: null });
    const [event] = await events(tenant.id, "domain.verified");
    expect(event).toMatchObject({ actorId: op.user.id, targetId: added.id });
    expect(event?.details).toMatchObject({ method: "override", reason: "Checked the registrar by phone" });
  });

  test("a tenant admin asking for the override is refused (403) and the domain stays pending", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const added = await addDomain(tenant.id, admin.token);
    const res = await verify(tenant.id, admin.token, added.id, { override: true, reason: "trust me" });
    expect(res.status).toBe(403);
    expect((await client(api.url, admin.token).get(`${base(tenant.id)}/${added.id}`)).json.state).toBe("pending");
    expect(await events(tenant.id, "domain.verified")).toHaveLength(0);
  });

  test("the override needs a reason (400 naming reason), and respects another tenant's verified claim (409)", async () => {
    const a = await tenantWithMembers();
    const b = await tenantWithMembers();
    const op = await operator();
    const domain = freshDomain();
    const inA = await addDomain(a.tenant.id, a.admin.token, domain);
    const inB = await addDomain(b.tenant.id, b.admin.token, domain);
    const noReason = await verify(a.tenant.id, op.token, inA.id, { override: true });
    expect(noReason.status).toBe(400);
    expect(noReason.json.errors[0].path).toBe("reason");
    expect((await verify(a.tenant.id, op.token, inA.id, { override: true, reason: "ok" })).status).toBe(200);
    const taken = await verify(b.tenant.id, op.token, inB.id, { override: true, reason: "ok" });
    expect(taken.status).toBe(409);
    expect(taken.json.detail).toContain(domain);
  });
});

describe("who may do what", () => {
  test("another tenant's admin gets 404 for every operation on a domain", async () => {
    const a = await tenantWithMembers();
    const b = await tenantWithMembers();
    const added = await addDomain(a.tenant.id, a.admin.token);
    const intruder = client(api.url, b.admin.token);
    expect((await intruder.get(`${base(a.tenant.id)}/${added.id}`)).status).toBe(404);
    expect((await intruder.get(base(a.tenant.id))).status).toBe(404);
    expect((await intruder.post(`${base(a.tenant.id)}/${added.id}/verify`)).status).toBe(404);
    expect((await intruder.delete(`${base(a.tenant.id)}/${added.id}`)).status).toBe(404);
    // Through its own tenant's path, A's domain id is just not there.
    expect((await intruder.get(`${base(b.tenant.id)}/${added.id}`)).status).toBe(404);
    expect((await intruder.post(`${base(b.tenant.id)}/${added.id}/verify`)).status).toBe(404);
    expect((await intruder.delete(`${base(b.tenant.id)}/${added.id}`)).status).toBe(404);
    expect(await (await db()).domain.findUnique({ where: { id: added.id } })).not.toBeNull();
  });

  test("a viewer reads domains but cannot add, verify or delete them (403)", async () => {
    const { tenant, admin, viewer } = await tenantWithMembers();
    const added = await addDomain(tenant.id, admin.token);
    const reader = client(api.url, viewer.token);
    expect((await reader.get(base(tenant.id))).json.count).toBe(1);
    expect((await reader.get(`${base(tenant.id)}/${added.id}`)).json.verification.value).toBe(added.verification.value);
    expect((await reader.post(base(tenant.id), { domain: freshDomain() })).status).toBe(403);
    expect((await reader.post(`${base(tenant.id)}/${added.id}/verify`)).status).toBe(403);
    expect((await reader.delete(`${base(tenant.id)}/${added.id}`)).status).toBe(403);
  });
});

describe("listing and deleting", () => {
  test("the list is paginated, newest first", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const added = [];
    for (let i = 0; i < 3; i++) added.push(await addDomain(tenant.id, admin.token));
    const page = await client(api.url, admin.token).get(`${base(tenant.id)}?page_size=2`);
    expect(page.status).toBe(200);
    expect(page.json.count).toBe(3);
    expect(page.json.results.map((d: { id: string }) => d.id)).toEqual([added[2]!.id, added[1]!.id]);
    const next = await client(api.url, admin.token).get(page.json.next.replace(api.url, ""));
    expect(next.json.results.map((d: { id: string }) => d.id)).toEqual([added[0]!.id]);
  });

  test("DELETE answers 204, the domain is gone, domain.deleted is recorded", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const added = await addDomain(tenant.id, admin.token);
    const res = await client(api.url, admin.token).delete(`${base(tenant.id)}/${added.id}`);
    expect(res.status).toBe(204);
    expect((await client(api.url, admin.token).get(`${base(tenant.id)}/${added.id}`)).status).toBe(404);
    const [deleted] = await events(tenant.id, "domain.deleted");
    expect(deleted?.details).toMatchObject({ domain: added.domain, state: "pending" });
    // Deleted, it may be added again (with a new value).
    const again = await addDomain(tenant.id, admin.token, added.domain);
    expect(again.verification.value).not.toBe(added.verification.value);
  });
});
