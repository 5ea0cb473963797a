/**
 * A SAML provider's signing certificate near its end: housekeeping announces it once at 30 days,
 * once at 7 and once when expired (`sso_provider.certificate_expiring`: audit and webhooks), a new
 * certificate starts over, and operators and support list soon-expiring certificates across
 * tenants. The certificates are real ones the local IdP publishes in its metadata.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { X509Certificate } from "node:crypto";
import { apiServer } from "../support/api-server.ts";
import { client, createToken, createUser, tenantWithMembers } from "../support/fixtures.ts";
import { startSamlIdp, type SamlIdp } from "../support/saml-idp.ts";
import { selfSignedCertificate } from "../support/x509.ts";
import { clock } from "../../server/clock.ts";
import { database } from "../../server/db/client.ts";
import { runHousekeeping } from "../../server/app/cron.ts";
import { announceExpiringCertificates } from "../../server/sso/certificates.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";

const DAY = 24 * 60 * 60 * 1000;
const EVENT = "sso_provider.certificate_expiring";

const api = apiServer();
const realNow = clock.now;
let idp: SamlIdp;
beforeAll(async () => {
  idp = await startSamlIdp();
});
afterEach(() => {
  clock.now = realNow;
});
afterAll(async () => {
  await metadataChecksIdle();
  await idp.close();
});

/** The IdP publishes one signing certificate ending `days` from now (real time); answers its end, to the second. */
function publishCertificate(days: number): Date {
  const key = selfSignedCertificate("Expiring IdP", { notAfter: new Date(realNow().getTime() + days * DAY) });
  idp.keys = [key];
  idp.signingKey = key;
  return new Date(new X509Certificate(key.certificatePem).validTo);
}

/** Half a day inside `days` left, so whole days left reads `days`. */
const at = (expires: Date, days: number) => {
  clock.now = () => new Date(expires.getTime() - days * DAY - DAY / 2);
};

async function samlProvider(tenantId: string, token: string, body: Record<string, unknown> = {}) {
  const res = await client(api.url, token).post(`/api/v1/tenants/${tenantId}/sso`, {
    provider_type: "saml",
    name: "Okta",
    metadata_url: idp.metadataUrl,
    ...body,
  });
  expect(res.status, res.text).toBe(201);
  await metadataChecksIdle();
  return res.json as { id: string; name: string };
}

describe("announcing an expiring certificate", () => {
  let world: Awaited<ReturnType<typeof tenantWithMembers>>;
  let provider: { id: string; name: string };
  let expires: Date;
  let webhookId: string;

  const events = async () => {
    const res = await client(api.url, world.admin.token).get(`/api/v1/tenants/${world.tenant.id}/audit?event_type=${EVENT}`);
    expect(res.status, res.text).toBe(200);
    return (res.json.results as { id: string; target: { id: string; name: string }; details: Record<string, unknown> }[]).reverse();
  };
  const deliveries = async () => {
    const res = await client(api.url, world.admin.token).get(`/api/v1/tenants/${world.tenant.id}/webhooks/${webhookId}/deliveries`);
    expect(res.status, res.text).toBe(200);
    return (res.json.results as { event_id: string; event_type: string; payload: string }[]).reverse();
  };
  const housekeeping = async () => (await runHousekeeping(await database())).sso_certificates_announced;

  beforeAll(async () => {
    world = await tenantWithMembers();
    const hook = await client(api.url, world.admin.token).post(`/api/v1/tenants/${world.tenant.id}/webhooks`, {
      url: "http://127.0.0.1:9/hook",
      events: [EVENT],
    });
    expect(hook.status, hook.text).toBe(201);
    webhookId = hook.json.id;
    expires = publishCertificate(40);
    provider = await samlProvider(world.tenant.id, world.admin.token);
  });

  test("the provider shows the certificate's end (what the SSO page's banner reads)", async () => {
    const res = await client(api.url, world.viewer.token).get(`/api/v1/tenants/${world.tenant.id}/sso/${provider.id}`);
    expect(res.json.metadata).toMatchObject({ status: "valid", certificate_expires_at: expires.toISOString() });
    expect(res.json).toMatchObject({ protocol: "saml", enabled: true });
  });

  test("40 days before: nothing is announced", async () => {
    expect(await housekeeping()).toBe(0);
    expect(await events()).toEqual([]);
  });

  test("within 30 days: one event, in the audit log and to the subscribed webhook; a second run adds none", async () => {
    at(expires, 29);
    expect(await housekeeping()).toBe(1);
    const [event, ...more] = await events();
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      target: { id: provider.id, name: provider.name },
      details: { expires_at: expires.toISOString(), days_left: 29, threshold: 30, entity_id: idp.entityId },
    });
    const [delivery, ...others] = await deliveries();
    expect(others).toEqual([]);
    expect(delivery).toMatchObject({ event_id: event!.id, event_type: EVENT });
    expect(JSON.parse(delivery!.payload)).toMatchObject({ type: EVENT, data: { details: { threshold: 30, days_left: 29 } } });

    expect(await housekeeping()).toBe(0);
    at(expires, 10);
    expect(await housekeeping()).toBe(0);
    expect(await events()).toHaveLength(1);
    expect(await deliveries()).toHaveLength(1);
  });

  test("within 7 days: the 7-day event, once, even when two instances run the job at once", async () => {
    at(expires, 6);
    const db = await database();
    const runs = await Promise.all([announceExpiringCertificates(db), announceExpiringCertificates(db), announceExpiringCertificates(db)]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect((await events()).map((e) => e.details)).toEqual([
      expect.objectContaining({ threshold: 30 }),
      { expires_at: expires.toISOString(), days_left: 6, threshold: 7, entity_id: idp.entityId },
    ]);
    expect(await housekeeping()).toBe(0);
    expect(await deliveries()).toHaveLength(2);
  });

  test("once expired: one last event (threshold 0)", async () => {
    clock.now = () => new Date(expires.getTime() + DAY / 2);
    expect(await housekeeping()).toBe(1);
    expect((await events()).at(-1)!.details).toMatchObject({ threshold: 0, days_left: -1 });
    expect(await housekeeping()).toBe(0);
  });

  test("a new certificate (metadata refreshed) starts over at 30 days", async () => {
    const renewed = publishCertificate(100);
    const refresh = await client(api.url, world.admin.token).post(`/api/v1/tenants/${world.tenant.id}/sso/${provider.id}/refresh-metadata`);
    expect(refresh.status, refresh.text).toBe(200);
    expect(refresh.json.metadata.certificate_expires_at).toBe(renewed.toISOString());
    expect(await housekeeping()).toBe(0);

    at(renewed, 20);
    expect(await housekeeping()).toBe(1);
    expect((await events()).at(-1)!.details).toEqual({
      expires_at: renewed.toISOString(),
      days_left: 20,
      threshold: 30,
      entity_id: idp.entityId,
    });
    expect(await housekeeping()).toBe(0);
  });

  test("a disabled provider's certificate is not announced", async () => {
    const other = await tenantWithMembers();
    publishCertificate(3);
    await samlProvider(other.tenant.id, other.admin.token, { enabled: false });
    expect(await housekeeping()).toBe(0);
    const audit = await client(api.url, other.admin.token).get(`/api/v1/tenants/${other.tenant.id}/audit?event_type=${EVENT}`);
    expect(audit.json.results).toEqual([]);
  });
});

describe("GET /api/v1/sso-certificates/expiring", () => {
  const PATH = "/api/v1/sso-certificates/expiring";
  let operatorToken: string;
  let supportToken: string;
  let a: Awaited<ReturnType<typeof tenantWithMembers>>;
  let b: Awaited<ReturnType<typeof tenantWithMembers>>;
  const mine: Record<string, { id: string; expires: Date }> = {};

  beforeAll(async () => {
    const [ops, support] = await Promise.all([createUser({ platformRole: "operator" }), createUser({ platformRole: "support" })]);
    [operatorToken, supportToken] = await Promise.all([createToken(ops.id), createToken(support.id)]);
    [a, b] = await Promise.all([tenantWithMembers("Acme"), tenantWithMembers("Globex")]);
    for (const [key, world, days] of [
      ["a20", a, 20],
      ["b5", b, 5],
      ["a200", a, 200],
    ] as const) {
      const expires = publishCertificate(days);
      mine[key] = { id: (await samlProvider(world.tenant.id, world.admin.token, { name: `IdP ${key}` })).id, expires };
    }
  });

  /** This describe's providers, in the order listed (other tests' providers share the database). */
  const listed = (json: { results: { provider_id: string }[] }) =>
    json.results.filter((r) => Object.values(mine).some((m) => m.id === r.provider_id));

  test("an operator sees every tenant's soon-expiring certificates, soonest first", async () => {
    const res = await client(api.url, operatorToken).get(PATH);
    expect(res.status, res.text).toBe(200);
    expect(listed(res.json)).toEqual([
      {
        tenant_id: b.tenant.id,
        tenant_name: "Globex",
        provider_id: mine.b5!.id,
        provider_name: "IdP b5",
        provider_type: "saml",
        certificate_expires_at: mine.b5!.expires.toISOString(),
        days_left: 4,
      },
      {
        tenant_id: a.tenant.id,
        tenant_name: "Acme",
        provider_id: mine.a20!.id,
        provider_name: "IdP a20",
        provider_type: "saml",
        certificate_expires_at: mine.a20!.expires.toISOString(),
        days_left: 19,
      },
    ]);
  });

  test("within_days narrows or widens the window", async () => {
    const ops = client(api.url, operatorToken);
    expect(listed((await ops.get(`${PATH}?within_days=10`)).json).map((r) => r.provider_id)).toEqual([mine.b5!.id]);
    expect(listed((await ops.get(`${PATH}?within_days=365`)).json).map((r) => r.provider_id)).toEqual([
      mine.b5!.id,
      mine.a20!.id,
      mine.a200!.id,
    ]);
    expect(listed((await ops.get(`${PATH}?within_days=0`)).json)).toEqual([]);
  });

  test("pages keep within_days and follow on by cursor in expiry order", async () => {
    const ops = client(api.url, operatorToken);
    const all = (await ops.get(`${PATH}?within_days=365&page_size=100`)).json;
    const first = await ops.get(`${PATH}?within_days=365&page_size=1`);
    expect(first.json.count).toBe(all.count);
    expect(new URL(first.json.next).searchParams.get("within_days")).toBe("365");
    const seen: string[] = first.json.results.map((r: { provider_id: string }) => r.provider_id);
    for (let cursor = first.json.next_cursor; cursor;) {
      const page = await ops.get(`${PATH}?within_days=365&page_size=1&cursor=${cursor}`);
      expect(page.status, page.text).toBe(200);
      seen.push(...page.json.results.map((r: { provider_id: string }) => r.provider_id));
      cursor = page.json.next_cursor;
    }
    expect(seen).toEqual(all.results.map((r: { provider_id: string }) => r.provider_id));
  });

  test("support sees it; a tenant admin does not (403)", async () => {
    const support = await client(api.url, supportToken).get(PATH);
    expect(support.status).toBe(200);
    expect(listed(support.json)).toHaveLength(2);
    const admin = await client(api.url, a.admin.token).get(PATH);
    expect(admin.status).toBe(403);
    expect(admin.json).toMatchObject({ code: "forbidden" });
  });

  test.each(["-1", "366", "1.5", "soon"])("within_days=%s → 400 naming within_days", async (value) => {
    const res = await client(api.url, operatorToken).get(`${PATH}?within_days=${value}`);
    expect(res.status).toBe(400);
    expect(res.json.errors[0].path).toBe("within_days");
  });

  test("a disabled provider is not listed", async () => {
    // Disabling through the API needs a step-up, beside the point here.
    await (await database()).sql.query(`UPDATE sso_providers SET enabled = false WHERE id = $1::uuid`, [mine.b5!.id]);
    const res = await client(api.url, operatorToken).get(PATH);
    expect(listed(res.json).map((r) => r.provider_id)).toEqual([mine.a20!.id]);
  });
});
