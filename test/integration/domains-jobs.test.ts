/**
 * Housekeeping of verified domains (server/domains/jobs.ts) against a real DNS server on
 * loopback: pending domains re-checked with backoff and given up after 7 days, verified ones
 * re-checked daily, and a record gone later reported (event + state), while a DNS outage is not.
 */
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, db, operator, tenantWithMembers } from "../support/fixtures.ts";
import { startDns } from "../support/dns-server.ts";
import { clock } from "../../server/clock.ts";
import { database } from "../../server/db/client.ts";
import { dnsSettings } from "../../server/domains/dns.ts";
import { domainJobs } from "../../server/domains/jobs.ts";

const dns = await startDns();
process.env.DNS_SERVERS = dns.address;
const api = apiServer();
afterAll(() => dns.close());
const realNow = clock.now;
const defaultTimeout = dnsSettings.timeoutMs;
afterEach(() => {
  clock.now = realNow;
  dnsSettings.timeoutMs = defaultTimeout;
});

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
let counter = 0;
const freshDomain = () => `j${Date.now().toString(36)}${counter++}.example.org`;
const base = (tenantId: string) => `/api/v1/tenants/${tenantId}/domains`;

/** Moves the clock `ms` past the real time and runs the re-check job, as the ticker would. */
async function recheckAt(ms: number) {
  const at = Date.now() + ms;
  clock.now = () => new Date(at);
  return domainJobs[0]!.run(await database(), { budgetMs: 30_000 });
}

async function addDomain(tenantId: string, token: string) {
  const res = await client(api.url, token).post(base(tenantId), { domain: freshDomain() });
  expect(res.status).toBe(201);
  return res.json as { id: string; domain: string; verification: { name: string; value: string } };
}

const lookups = (name: string) => dns.queries.filter((query) => query === name).length;
const row = async (id: string) => (await db()).domain.findUniqueOrThrow({ where: { id } });
const events = async (tenantId: string, type: string) => (await db()).auditEvent.findMany({ where: { tenantId, eventType: type } });

describe("pending domains", () => {
  test("are checked 1, 5 and 15 minutes apart, then hourly, and verify once the record appears", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const added = await addDomain(tenant.id, admin.token);
    const created = await row(added.id);
    expect(created.nextCheckAt!.getTime() - created.createdAt.getTime()).toBe(MINUTE);

    await recheckAt(2 * MINUTE);
    const first = await row(added.id);
    expect(first).toMatchObject({ state: "pending", lastCheckResult: "no_record", checkCount: 1 });
    expect(first.nextCheckAt!.getTime() - first.lastCheckedAt!.getTime()).toBe(5 * MINUTE);

    await recheckAt(8 * MINUTE);
    const second = await row(added.id);
    expect(second.nextCheckAt!.getTime() - second.lastCheckedAt!.getTime()).toBe(15 * MINUTE);

    await recheckAt(24 * MINUTE);
    const third = await row(added.id);
    expect(third.nextCheckAt!.getTime() - third.lastCheckedAt!.getTime()).toBe(60 * MINUTE);

    // Not due yet: nothing looks.
    const queries = lookups(added.verification.name);
    await recheckAt(30 * MINUTE);
    expect(lookups(added.verification.name)).toBe(queries);
    expect((await row(added.id)).checkCount).toBe(3);

    dns.records.set(added.verification.name, [[added.verification.value]]);
    await recheckAt(90 * MINUTE);
    const verified = await row(added.id);
    expect(verified).toMatchObject({ state: "verified", verificationMethod: "dns" });
    expect(verified.nextCheckAt!.getTime() - verified.verifiedAt!.getTime()).toBe(DAY);
    expect((await events(tenant.id, "domain.verified"))[0]?.actorId).toBeNull();
  });

  test("still not verified 7 days after being added: failed, with domain.verification_failed", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const added = await addDomain(tenant.id, admin.token);
    dns.records.set(added.verification.name, [["control-plane-verification=not-it"]]);
    await recheckAt(6 * DAY);
    expect((await row(added.id)).state).toBe("pending");

    const summary = await recheckAt(7 * DAY + MINUTE);
    expect(summary.domains_failed).toBeGreaterThanOrEqual(1);
    const failed = await row(added.id);
    expect(failed).toMatchObject({ state: "failed", lastCheckResult: "wrong_value", nextCheckAt: null });
    expect(failed.lastError).toContain("Not verified within 7 days");
    const [event] = await events(tenant.id, "domain.verification_failed");
    expect(event?.details).toMatchObject({ domain: added.domain, previous_state: "pending", result: "wrong_value" });

    // Given up: housekeeping no longer looks, but "Verify now" still can.
    await recheckAt(8 * DAY);
    expect((await row(added.id)).lastCheckedAt).toEqual(failed.lastCheckedAt);
  });
});

describe("verified domains", () => {
  async function verifiedDomain() {
    const { tenant, admin } = await tenantWithMembers();
    const added = await addDomain(tenant.id, admin.token);
    dns.records.set(added.verification.name, [[added.verification.value]]);
    const res = await client(api.url, admin.token).post(`${base(tenant.id)}/${added.id}/verify`);
    expect(res.json.state).toBe("verified");
    return { tenant, admin, added };
  }

  test("are re-checked daily; a record removed later is reported: failed, with domain.verification_failed", async () => {
    const { tenant, admin, added } = await verifiedDomain();
    await recheckAt(DAY + MINUTE);
    expect(await row(added.id)).toMatchObject({ state: "verified", lastCheckResult: "match" });

    dns.records.delete(added.verification.name);
    await recheckAt(2 * DAY + 2 * MINUTE);
    const failed = await row(added.id);
    expect(failed).toMatchObject({ state: "failed", lastCheckResult: "no_record", nextCheckAt: null });
    expect(failed.lastError).toContain("no longer there");
    const [event] = await events(tenant.id, "domain.verification_failed");
    expect(event).toMatchObject({ targetId: added.id, actorId: null });
    expect(event?.details).toMatchObject({ previous_state: "verified", result: "no_record" });
    const shown = await client(api.url, admin.token).get(`${base(tenant.id)}/${added.id}`);
    expect(shown.json).toMatchObject({ state: "failed", last_check_result: "no_record" });
  });

  test("a record changed to another value (a new owner) is reported the same way", async () => {
    const { tenant, added } = await verifiedDomain();
    dns.records.set(added.verification.name, [["control-plane-verification=new-owner"]]);
    await recheckAt(DAY + MINUTE);
    expect(await row(added.id)).toMatchObject({ state: "failed", lastCheckResult: "wrong_value" });
    expect(await events(tenant.id, "domain.verification_failed")).toHaveLength(1);
  });

  test("a DNS timeout at the daily check keeps it verified and looks again within the hour", async () => {
    dnsSettings.timeoutMs = 300;
    const { tenant, added } = await verifiedDomain();
    dns.failing.set(added.verification.name, "silent");
    await recheckAt(DAY + MINUTE);
    const kept = await row(added.id);
    expect(kept).toMatchObject({ state: "verified", lastCheckResult: "unavailable" });
    expect(kept.nextCheckAt!.getTime() - kept.lastCheckedAt!.getTime()).toBe(60 * MINUTE);
    expect(await events(tenant.id, "domain.verification_failed")).toHaveLength(0);
    dns.failing.delete(added.verification.name);
  });

  test("a domain an operator verified by hand is not re-checked", async () => {
    const { tenant, admin } = await tenantWithMembers();
    const op = await operator();
    const added = await addDomain(tenant.id, admin.token);
    await client(api.url, op.token).post(`${base(tenant.id)}/${added.id}/verify`, { override: true, reason: "embedded demo" });
    await recheckAt(3 * DAY);
    expect(lookups(added.verification.name)).toBe(0);
    expect(await row(added.id)).toMatchObject({ state: "verified", verificationMethod: "override" });
  });
});
