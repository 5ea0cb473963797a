/**
 * The log streams REST API: create behind step-up, secrets write-only and encrypted at rest,
 * validation naming `config.<field>`, where a stream starts (now, oldest, a date), PATCH merging
 * config (a secret left out is kept; a config change needs step-up), pause and resume, delete,
 * roles (viewers read, admins write) and isolation (another tenant's stream is 404), and one
 * audit event per change.
 */
import { describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";

const api = apiServer();

const S3 = {
  name: "Data lake",
  type: "s3",
  config: {
    bucket: "audit-lake",
    region: "eu-west-1",
    prefix: "cp/",
    access_key_id: "AKIAEXAMPLE",
    secret_access_key: "very-secret-key-123",
  },
};

async function setup() {
  const world = await tenantWithMembers();
  const base = `/api/v1/tenants/${world.tenant.id}/log-streams`;
  const admin = client(api.url, world.admin.token);
  return {
    ...world,
    base,
    admin,
    viewerClient: client(api.url, world.viewer.token),
    stepUp: () => admin.post("/api/v1/auth/step-up", { password: "admin-password" }),
  };
}

const asText = (value: unknown) => JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? String(v) : v));
const auditOf = async (tenantId: string, type: string) => (await db()).auditEvent.findMany({ where: { tenantId, eventType: type } });

describe("creating a stream", () => {
  test("needs a step-up; 201 with Location; the secret is never returned and is encrypted at rest", async () => {
    const { base, admin, tenant, stepUp } = await setup();
    const refused = await admin.post(base, S3);
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe("step_up_required");
    expect((await stepUp()).status).toBe(200);

    const res = await admin.post(base, S3);
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe(`${api.url}${base}/${res.json.id}`);
    expect(res.json).toMatchObject({
      tenant_id: tenant.id,
      name: "Data lake",
      type: "s3",
      config: { bucket: "audit-lake", region: "eu-west-1", prefix: "cp", access_key_id: "AKIAEXAMPLE", secret_access_key_set: true },
      event_types: null,
      enabled: true,
      state: "active",
      last_batch_at: null,
      last_error: null,
    });
    for (const r of [res, await admin.get(`${base}/${res.json.id}`), await admin.get(base)])
      expect(r.text).not.toContain("very-secret-key-123");
    const row = await (await db()).logStream.findUniqueOrThrow({ where: { id: res.json.id } });
    expect(asText(row)).not.toContain("very-secret-key-123");
    expect(row.secretsCiphertext).toBeTruthy();

    const [created] = await auditOf(tenant.id, "log_stream.created");
    expect(created).toMatchObject({ targetType: "log_stream", targetId: res.json.id });
    expect(JSON.stringify(created!.details)).not.toContain("very-secret-key-123");
  });

  test("validation names the field: type, config.<field>, start_from, event_types", async () => {
    const { base, admin, stepUp } = await setup();
    await stepUp();
    const cases: [unknown, string][] = [
      [{ ...S3, type: "ftp" }, "type"],
      [{ ...S3, config: { ...S3.config, bucket: "No_Such Bucket" } }, "config.bucket"],
      [{ ...S3, config: { region: "eu-west-1", access_key_id: "a", secret_access_key: "b" } }, "config.bucket"],
      [{ ...S3, config: { ...S3.config, colour: "blue" } }, "config"],
      [{ name: "x", type: "syslog", config: { host: "siem.acme.test", port: 70000 } }, "config.port"],
      [{ name: "x", type: "https", config: { url: "ftp://x" } }, "config.url"],
      [{ name: "x", type: "datadog", config: { site: "datadoghq.moon", api_key: "k" } }, "config.site"],
      [{ ...S3, start_from: "yesterday" }, "start_from"],
      [{ ...S3, event_types: ["nope"] }, "event_types.0"],
      [{ ...S3, name: "" }, "name"],
    ];
    for (const [body, path] of cases) {
      const res = await admin.post(base, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
  });

  test("start_from: now starts at the head (its own created event first), oldest at the first event, a date at the first since", async () => {
    const { base, admin, tenant, stepUp } = await setup();
    await stepUp();
    const head = async () => (await (await db()).auditChain.findUniqueOrThrow({ where: { chainId: tenant.id } })).sequence;
    const before = Number(await head());
    const now = await admin.post(base, { ...S3, name: "now" });
    expect(now.json.cursor_sequence).toBe(before);
    expect(now.json.lag_events).toBe(1);
    const oldest = await admin.post(base, { ...S3, name: "oldest", start_from: "oldest" });
    expect(oldest.json.cursor_sequence).toBe(0);
    expect(oldest.json.lag_events).toBe(Number(await head()));
    const future = await admin.post(base, { ...S3, name: "future", start_from: new Date(Date.now() + 3_600_000).toISOString() });
    expect(future.json.cursor_sequence).toBe(Number(await head()) - 1);
  });
});

describe("reading, changing, deleting", () => {
  test("viewers read, only admins write (403); another tenant's stream is 404", async () => {
    const { base, admin, viewerClient, stepUp } = await setup();
    await stepUp();
    const { json: stream } = await admin.post(base, S3);
    expect((await viewerClient.get(base)).json.results).toHaveLength(1);
    expect((await viewerClient.get(`${base}/${stream.id}`)).status).toBe(200);
    expect((await viewerClient.get(`${base}/${stream.id}/batches`)).json).toMatchObject({ results: [], count: 0 });
    expect((await viewerClient.patch(`${base}/${stream.id}`, { enabled: false })).status).toBe(403);
    expect((await viewerClient.delete(`${base}/${stream.id}`)).status).toBe(403);
    expect((await viewerClient.post(`${base}/${stream.id}/test`, {})).status).toBe(403);

    const other = await setup();
    for (const res of [
      await other.admin.get(`${other.base}/${stream.id}`),
      await other.admin.patch(`${other.base}/${stream.id}`, { name: "mine" }),
      await other.admin.delete(`${other.base}/${stream.id}`),
      await other.admin.get(`${other.base}/${stream.id}/batches`),
      await other.admin.get(`${base}/${stream.id}`),
    ])
      expect([403, 404]).toContain(res.status);
    expect((await other.admin.get(`${other.base}/${stream.id}`)).status).toBe(404);
  });

  test("PATCH: name without step-up; config merged (a secret left out is kept) behind step-up; pause and resume", async () => {
    const { base, admin, tenant, stepUp } = await setup();
    await stepUp();
    const { json: stream } = await admin.post(base, S3);
    const one = `${base}/${stream.id}`;
    const stored = async () => (await db()).logStream.findUniqueOrThrow({ where: { id: stream.id } });
    const cipher = (await stored()).secretsCiphertext;

    await (await db()).stepUp.deleteMany({});
    expect((await admin.patch(one, { name: "Lake" })).json.name).toBe("Lake");
    const refused = await admin.patch(one, { config: { prefix: "audit" } });
    expect(refused.status).toBe(401);
    expect((await stored()).config).toMatchObject({ prefix: "cp" });

    await stepUp();
    const changed = await admin.patch(one, { config: { prefix: "audit", path_style: true } });
    expect(changed.status).toBe(200);
    expect(changed.json.config).toMatchObject({ prefix: "audit", path_style: true, secret_access_key_set: true, bucket: "audit-lake" });
    expect((await stored()).secretsCiphertext).toBe(cipher);
    const cleared = await admin.patch(one, { config: { prefix: null } });
    expect(cleared.json.config.prefix).toBeUndefined();
    const rekeyed = await admin.patch(one, { config: { secret_access_key: "another-secret-456" } });
    expect(rekeyed.text).not.toContain("another-secret-456");
    expect((await stored()).secretsCiphertext).not.toBe(cipher);

    const updates = await auditOf(tenant.id, "log_stream.updated");
    expect(updates.length).toBe(4);
    expect(asText(updates)).not.toMatch(/very-secret-key-123|another-secret-456/);
    expect(updates.at(-1)!.details).toMatchObject({ changes: { config: { to: { secret_changed: true } } } });

    const paused = await admin.patch(one, { enabled: false });
    expect(paused.json).toMatchObject({ enabled: false, state: "paused" });
    expect(await auditOf(tenant.id, "log_stream.disabled")).toHaveLength(1);
    expect((await admin.patch(one, { enabled: true })).json.state).toBe("active");
    expect(await auditOf(tenant.id, "log_stream.enabled")).toHaveLength(1);

    expect((await admin.delete(one)).status).toBe(204);
    expect((await admin.get(one)).status).toBe(404);
    expect(await auditOf(tenant.id, "log_stream.deleted")).toHaveLength(1);
  });
});
