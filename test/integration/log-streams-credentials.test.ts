/**
 * A log stream's stored secret never follows it to a new destination. The attack: a tenant admin
 * who cannot read the stored HEC token or Datadog key points the stream at a server of their own
 * and presses Test (or waits for the next batch) to receive it. A PATCH that changes where batches
 * go (s3 bucket/region/endpoint, datadog site/endpoint, splunk_hec and https url) must send the
 * secret again: a required one is a 400 naming it and nothing changes; https's optional signing
 * secret is dropped (and the event says so).
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";
import { startSplunkHec, type SplunkHec } from "../support/log-receivers.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { closeOutboundPools } from "../../server/outbound/guard.ts";

const api = apiServer();
const TOKEN = "hec-token-of-the-tenant-0123";
let hec: SplunkHec;
let attacker: Receiver;
beforeAll(async () => {
  hec = await startSplunkHec({ token: TOKEN });
  attacker = await startReceiver();
});
afterAll(async () => {
  closeOutboundPools();
  await hec.close();
  await attacker.close();
});

async function streamOf(type: string, config: Record<string, unknown>) {
  const world = await tenantWithMembers();
  const admin = client(api.url, world.admin.token);
  expect((await admin.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
  const created = await admin.post(`/api/v1/tenants/${world.tenant.id}/log-streams`, { name: type, type, config });
  expect(created.status, created.text).toBe(201);
  const one = `/api/v1/tenants/${world.tenant.id}/log-streams/${created.json.id}`;
  const stored = async () => (await db()).logStream.findUniqueOrThrow({ where: { id: created.json.id } });
  const updates = async () => (await db()).auditEvent.findMany({ where: { tenantId: world.tenant.id, eventType: "log_stream.updated" } });
  return { admin, one, stored, updates, cipher: (await stored()).secretsCiphertext };
}

function expectSecretAsked(res: { status: number; text: string; json: { errors: { path: string; message: string }[] } }, field: string) {
  expect(res.status, res.text).toBe(400);
  expect(res.json.errors).toEqual([
    { path: `config.${field}`, message: expect.stringMatching(/^must be sent again when .+ never follows a stream to a new destination$/) },
  ]);
}

describe("splunk_hec: the token", () => {
  test("a new url without the token is refused (400 naming config.token); the token never reaches the new server", async () => {
    const { admin, one, stored, cipher } = await streamOf("splunk_hec", { url: hec.url, token: TOKEN });
    const moved = await admin.patch(one, { config: { url: attacker.url } });
    expectSecretAsked(moved, "token");
    expect(moved.json.errors[0].message).toMatch(/^must be sent again when url changes/);
    expect((await stored()).config).toMatchObject({ url: hec.url });
    expect((await stored()).secretsCiphertext).toBe(cipher);

    attacker.received.length = 0;
    expect((await admin.post(`${one}/test`, {})).json).toMatchObject({ ok: true });
    expect(JSON.stringify(attacker.received)).not.toContain(TOKEN);
    expect(hec.requests.at(-1)!.headers.authorization).toBe(`Splunk ${TOKEN}`);
  });

  test("the same url again, or another field, keeps the token; a new url with a new token takes only the new one", async () => {
    const { admin, one, stored, cipher } = await streamOf("splunk_hec", { url: hec.url, token: TOKEN });
    expect((await admin.patch(one, { config: { url: hec.url, index: "main" } })).status).toBe(200);
    expect((await stored()).secretsCiphertext).toBe(cipher);

    const moved = await admin.patch(one, { config: { url: attacker.url, token: "token-of-the-new-server" } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json.config).toMatchObject({ url: attacker.url, token_set: true });
    attacker.received.length = 0;
    await admin.post(`${one}/test`, {});
    expect(attacker.received.map((r) => r.headers.authorization)).toEqual(["Splunk token-of-the-new-server"]);
  });
});

describe("datadog and s3: the key", () => {
  test("datadog: a new site or endpoint without api_key is refused (400 naming config.api_key)", async () => {
    const { admin, one, stored, cipher } = await streamOf("datadog", { site: "datadoghq.com", api_key: "dd-key-0123" });
    expectSecretAsked(await admin.patch(one, { config: { endpoint: attacker.url } }), "api_key");
    expectSecretAsked(await admin.patch(one, { config: { site: "datadoghq.eu" } }), "api_key");
    expect((await admin.patch(one, { config: { service: "cp" } })).status).toBe(200);
    expect((await stored()).secretsCiphertext).toBe(cipher);
    const moved = await admin.patch(one, { config: { site: "datadoghq.eu", api_key: "dd-key-eu" } });
    expect(moved.json.config).toMatchObject({ site: "datadoghq.eu", api_key_set: true });
  });

  test("s3: a new bucket, region or endpoint without secret_access_key is refused (400 naming it)", async () => {
    const config = { bucket: "audit-lake", region: "eu-west-1", access_key_id: "AKIAEXAMPLE", secret_access_key: "s3-secret-0123" };
    const { admin, one, stored, cipher } = await streamOf("s3", config);
    for (const change of [
      { bucket: "attacker-lake" },
      { region: "us-east-1" },
      { endpoint: attacker.url },
      { bucket: "b-1", region: "us-east-2" },
    ])
      expectSecretAsked(await admin.patch(one, { config: change }), "secret_access_key");
    expect((await admin.patch(one, { config: { prefix: "audit", path_style: true } })).status).toBe(200);
    expect((await stored()).secretsCiphertext).toBe(cipher);
    expect((await stored()).config).toMatchObject({ bucket: "audit-lake", region: "eu-west-1", prefix: "audit" });
  });
});

describe("https: the optional signing secret", () => {
  test("a new url without the secret drops it: secret_set false, secret_dropped in the event, the new server's batches unsigned", async () => {
    const secret = `whsec_${randomBytes(24).toString("base64")}`;
    const { admin, one, stored, updates } = await streamOf("https", { url: `${hec.url}/siem`, secret });
    const moved = await admin.patch(one, { config: { url: `${attacker.url}/siem` } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json.config).toEqual({ url: `${attacker.url}/siem`, secret_set: false });
    expect((await stored()).secretsCiphertext).toBeNull();
    const [event] = await updates();
    expect(event!.details).toMatchObject({
      changes: { config: { from: { secret_set: true }, to: { secret_set: false, secret_dropped: true } } },
    });

    attacker.received.length = 0;
    await admin.post(`${one}/test`, {});
    expect(attacker.received).toHaveLength(1);
    expect(attacker.received[0]!.headers["webhook-signature"]).toBeUndefined();
  });

  test("a new url with the secret keeps signing", async () => {
    const secret = `whsec_${randomBytes(24).toString("base64")}`;
    const { admin, one } = await streamOf("https", { url: `${hec.url}/siem`, secret });
    const moved = await admin.patch(one, { config: { url: `${attacker.url}/siem`, secret } });
    expect(moved.json.config).toEqual({ url: `${attacker.url}/siem`, secret_set: true });
    attacker.received.length = 0;
    await admin.post(`${one}/test`, {});
    expect(attacker.received[0]!.headers["webhook-signature"]).toMatch(/^v1,/);
  });
});
