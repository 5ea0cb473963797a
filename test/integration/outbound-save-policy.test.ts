/**
 * With OUTBOUND_ALLOW_PRIVATE off (production's default), every place a target is stored refuses
 * a private host in the spellings that used to slip past the literal check: a trailing dot, a
 * private name, IPv6 addresses carrying a private IPv4 one, and for syslog (a bare host, not a
 * URL) the IPv4 shorthands `127.1`, `0x7f.1`, `2130706433`, `0`. Create and PATCH of webhooks,
 * of each log stream type and of SSO providers: 400 naming the field, nothing stored.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";
import { env } from "../../server/env.ts";
import { metadataChecksIdle } from "../../server/sso/checks.ts";

const api = apiServer();
beforeAll(() => {
  env().OUTBOUND_ALLOW_PRIVATE = false;
});
afterAll(async () => {
  await metadataChecksIdle();
  env().OUTBOUND_ALLOW_PRIVATE = true;
});

/** URL hosts the literal check let through. */
const URL_HOSTS = [
  "localhost.",
  "[::127.0.0.1]",
  "[::ffff:0:10.0.0.1]",
  "[64:ff9b::a9fe:a9fe]",
  "[2002:a9fe:a9fe::]",
  "metadata.google.internal",
];
/** Syslog hosts the literal check let through. */
const SYSLOG_HOSTS = ["127.1", "0x7f.1", "0177.0.0.1", "2130706433", "0", "LOCALHOST", "localhost.", "::127.0.0.1", "2002:7f00:1::"];

async function setup() {
  const world = await tenantWithMembers();
  const admin = client(api.url, world.admin.token);
  expect((await admin.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
  return { ...world, admin, base: `/api/v1/tenants/${world.tenant.id}` };
}

type Admin = Awaited<ReturnType<typeof setup>>["admin"];

function expectRefused(res: { status: number; text: string; json: { errors: { path: string; message: string }[] } }, field: string) {
  expect(res.status, res.text).toBe(400);
  expect(res.json.errors).toContainEqual({
    path: field,
    message: expect.stringMatching(/private or loopback.*OUTBOUND_ALLOW_PRIVATE=true/),
  });
}

test("webhooks: create and PATCH refuse each spelling (400 naming url)", async () => {
  const { admin, base } = await setup();
  const hook = await admin.post(`${base}/webhooks`, { url: "https://hooks.acme.test/in", events: ["*"] });
  expect(hook.status, hook.text).toBe(201);
  for (const host of URL_HOSTS) {
    expectRefused(await admin.post(`${base}/webhooks`, { url: `https://${host}/in`, events: ["*"] }), "url");
    expectRefused(await admin.patch(`${base}/webhooks/${hook.json.id}`, { url: `https://${host}/in` }), "url");
  }
  expect((await admin.get(`${base}/webhooks/${hook.json.id}`)).json.url).toBe("https://hooks.acme.test/in");
  expect(await (await db()).webhook.count({ where: { tenantId: hook.json.tenant_id } })).toBe(1);
});

const STREAMS: { type: string; field: string; config: Record<string, unknown>; at: (host: string) => unknown; hosts: string[] }[] = [
  {
    type: "s3",
    field: "endpoint",
    config: { bucket: "audit-lake", region: "eu-west-1", access_key_id: "AKIAEXAMPLE", secret_access_key: "s3-secret-123" },
    at: (host) => `https://${host}`,
    hosts: URL_HOSTS,
  },
  {
    type: "datadog",
    field: "endpoint",
    config: { site: "datadoghq.com", api_key: "dd-key-123" },
    at: (host) => `https://${host}/v2`,
    hosts: URL_HOSTS,
  },
  {
    type: "splunk_hec",
    field: "url",
    config: { url: "https://splunk.acme.test:8088", token: "hec-token-123" },
    at: (host) => `https://${host}:8088`,
    hosts: URL_HOSTS,
  },
  { type: "https", field: "url", config: { url: "https://siem.acme.test/in" }, at: (host) => `https://${host}/in`, hosts: URL_HOSTS },
  { type: "syslog", field: "host", config: { host: "siem.acme.test", port: 6514 }, at: (host) => host, hosts: SYSLOG_HOSTS },
];

test.each(STREAMS)("log streams, $type: create and PATCH refuse each spelling (400 naming config.$field)", async (stream) => {
  const { admin, base } = await setup();
  const created = await admin.post(`${base}/log-streams`, { name: stream.type, type: stream.type, config: stream.config });
  expect(created.status, created.text).toBe(201);
  const one = `${base}/log-streams/${created.json.id}`;
  const secrets = { secret_access_key: "s3-secret-123", api_key: "dd-key-123", token: "hec-token-123" };
  for (const host of stream.hosts) {
    const config = { ...stream.config, [stream.field]: stream.at(host) };
    expectRefused(await admin.post(`${base}/log-streams`, { name: host, type: stream.type, config }), `config.${stream.field}`);
    // The secret sent again, so only the host can be what is refused.
    const patch = { [stream.field]: stream.at(host), ...pick(secrets, Object.keys(stream.config)) };
    expectRefused(await admin.patch(one, { config: patch }), `config.${stream.field}`);
  }
  expect((await admin.get(one)).json.config).toMatchObject(pick(stream.config, ["url", "host", "endpoint"]));
  expect(await (await db()).logStream.count({ where: { tenantId: created.json.tenant_id } })).toBe(1);
});

test("SSO providers: create and PATCH refuse each spelling of metadata_url (400 naming it)", async () => {
  const { admin, base } = await setup();
  const provider = await createProvider(admin, base);
  for (const host of URL_HOSTS) {
    const metadata_url = `https://${host}/metadata.xml`;
    expectRefused(await admin.post(`${base}/sso`, { provider_type: "saml", name: "Okta", metadata_url }), "metadata_url");
    expectRefused(await admin.patch(`${base}/sso/${provider.id}`, { metadata_url }), "metadata_url");
  }
  expect((await admin.get(`${base}/sso/${provider.id}`)).json.metadata_url).toBe("https://idp.acme.test/metadata.xml");
});

async function createProvider(admin: Admin, base: string) {
  const res = await admin.post(`${base}/sso`, { provider_type: "saml", name: "Okta", metadata_url: "https://idp.acme.test/metadata.xml" });
  expect(res.status, res.text).toBe(201);
  return res.json as { id: string };
}

function pick(from: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => key in from).map((key) => [key, from[key]]));
}
