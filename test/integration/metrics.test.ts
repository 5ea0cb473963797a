/**
 * The Prometheus scrape over real HTTP from the production server module, after real requests,
 * appends and webhook attempts: the series, their labels (route templates, never ids), and the
 * bearer token it needs.
 */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createAppServer, type AppServer } from "../../server/ops/http-server.ts";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { database } from "../../server/db/client.ts";
import { startWebhookDispatcher } from "../../server/webhooks/sink.ts";
import { encryptSecret } from "../../server/secrets/encryption.ts";
import { deliverDueStreams } from "../../server/log-streams/engine.ts";
import { startSplunkHec } from "../support/log-receivers.ts";

const TOKEN = "metrics-token-0123456789";
// Log-stream batches go at once (the last test).
process.env.LOG_STREAM_BATCH_WAIT_MS = "0";
process.env.METRICS_TOKEN = TOKEN;
process.env.TRUST_PROXY = "true";

let app: AppServer;
let base: string;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  app = createAppServer((_req, res) => {
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => app.server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app.drain(0);
  await receiver.close();
});

const scrape = async (authorization?: string) => {
  const res = await fetch(`${base}/api/metrics`, { headers: authorization ? { authorization } : {} });
  return { status: res.status, headers: res.headers, text: await res.text() };
};

/** The value of one sample line, e.g. `http_requests_total{method="GET",...}`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split("\n")) {
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? "").split(/,(?=[a-z_]+=")/).filter(Boolean);
    if (wanted.every((w) => have.includes(w))) return Number(match[3]);
  }
  return undefined;
}

test("HSTS on API responses reached over https (through a trusted proxy), not over plain http", async () => {
  const plain = await fetch(`${base}/api/health/live`);
  expect(plain.headers.get("strict-transport-security")).toBeNull();
  const https = await fetch(`${base}/api/health/live`, { headers: { "x-forwarded-proto": "https" } });
  expect(https.headers.get("strict-transport-security")).toBe("max-age=31536000");
  expect(https.headers.get("x-content-type-options")).toBe("nosniff");
});

test("without the bearer token: 401 problem+json (wrong or missing), never the metrics", async () => {
  for (const authorization of [undefined, "Bearer wrong-token-0123456789", `Bearer ${TOKEN}x`, TOKEN]) {
    const res = await scrape(authorization);
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(res.headers.get("www-authenticate")).toBe("Bearer");
    expect(res.text).not.toContain("http_requests_total");
  }
});

test(
  "requests by method, route template and status with latency; attempts by outcome; appends; queue and pool gauges",
  { timeout: 30_000 },
  async () => {
    const { tenant, admin } = await tenantWithMembers();
    const api = client(base, admin.token);
    const audit = `/api/v1/tenants/${tenant.id}/audit`;
    const db_ = await database();
    const stop = await startWebhookDispatcher(db_);
    const prisma = await db();
    await prisma.webhook.create({
      data: {
        tenantId: tenant.id,
        url: `${receiver.url}/ok`,
        events: ["*"],
        secretCiphertext: encryptSecret("metrics-secret-0123456"),
        secretHint: "3456",
      },
    });
    await prisma.webhook.create({
      data: {
        tenantId: tenant.id,
        url: `${receiver.url}/fail`,
        events: ["*"],
        secretCiphertext: encryptSecret("metrics-secret-0123456"),
        secretHint: "3456",
      },
    });
    receiver.respond = (r) => ({ status: r.path === "/fail" ? 500 : 200 });

    const before = await scrape(`Bearer ${TOKEN}`);
    expect(before.status).toBe(200);
    const appendsBefore = sample(before.text, "audit_appends_total") ?? 0;

    for (let i = 0; i < 3; i++) expect((await api.post(audit, { event_type: "metrics.tick", actor: { id: "m" } })).status).toBe(201);
    for (let i = 0; i < 2; i++) expect((await api.get(audit)).status).toBe(200);
    expect((await api.get(`/api/v1/tenants/00000000-0000-4000-8000-000000000000/audit`)).status).toBe(404);
    expect((await api.get("/api/health/live")).status).toBe(200);
    await receiver.waitFor(6);
    // Stopping waits for the attempts in flight to be recorded.
    await stop();

    // One delivery due (waiting, unclaimed) and one in flight (leased), whatever the others are.
    await db_.sql.query(`UPDATE webhook_deliveries SET status = 'succeeded', locked_until = NULL`);
    const rows = await db_.sql.query<{ id: string }>(`SELECT id FROM webhook_deliveries ORDER BY created_at LIMIT 2`);
    await db_.sql.query(`UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now() - interval '1 second' WHERE id = $1`, [
      rows[0]!.id,
    ]);
    await db_.sql.query(
      `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = now(), locked_until = now() + interval '1 minute' WHERE id = $1`,
      [rows[1]!.id],
    );
    await new Promise((resolve) => setTimeout(resolve, 50));

    const { status, headers, text } = await scrape(`Bearer ${TOKEN}`);
    expect(status).toBe(200);
    expect(headers.get("content-type")).toContain("text/plain; version=0.0.4");
    const route = "/api/v1/tenants/{tenant_id}/audit";
    expect(sample(text, "http_requests_total", { method: "POST", route, status: "201" })).toBe(3);
    expect(sample(text, "http_requests_total", { method: "GET", route, status: "200" })).toBe(2);
    expect(sample(text, "http_requests_total", { method: "GET", route, status: "404" })).toBe(1);
    const live = { method: "GET", route: "/api/health/live", status: "200" };
    expect(sample(text, "http_requests_total", live)! - (sample(before.text, "http_requests_total", live) ?? 0)).toBe(1);
    expect(sample(text, "http_request_duration_seconds_count", { method: "POST", route, status: "201" })).toBe(3);
    expect(sample(text, "http_request_duration_seconds_bucket", { method: "POST", route, status: "201", le: "+Inf" })).toBe(3);
    expect(sample(text, "http_request_duration_seconds_sum", { method: "POST", route, status: "201" })).toBeGreaterThan(0);
    // Route templates only: no tenant id (or any other id) in a label.
    expect(text).not.toContain(tenant.id);
    expect(text).not.toContain("00000000-0000-4000-8000-000000000000");

    expect(sample(text, "webhook_attempts_total", { outcome: "succeeded" })).toBe(3);
    expect(sample(text, "webhook_attempts_total", { outcome: "failed" })).toBe(3);
    expect(sample(text, "webhook_attempt_duration_seconds_count", { outcome: "succeeded" })).toBe(3);
    expect(sample(text, "webhook_attempt_duration_seconds_bucket", { outcome: "failed", le: "+Inf" })).toBe(3);
    expect(sample(text, "webhook_deliveries", { state: "due" })).toBe(1);
    expect(sample(text, "webhook_deliveries", { state: "in_flight" })).toBe(1);
    expect(sample(text, "audit_appends_total")).toBe(appendsBefore + 3);
    expect(sample(text, "db_pool_connections", { state: "total" })).toBeGreaterThan(0);
    expect(sample(text, "db_pool_connections", { state: "idle" })).toBeGreaterThanOrEqual(0);
    expect(sample(text, "db_pool_connections", { state: "waiting" })).toBe(0);
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(0);
  },
);

test("routes served through Next are labelled by their template too: the SSO routes, the OpenAPI document, unknown /api paths", async () => {
  const provider = "00000000-0000-4000-8000-0000000000aa";
  const requests: [string, string, string][] = [
    ["GET", "/api/sso/authorize?client_id=x", "/api/sso/authorize"],
    ["POST", "/api/sso/token", "/api/sso/token"],
    ["GET", "/api/sso/profile", "/api/sso/profile"],
    ["POST", "/api/sso/signin", "/api/sso/signin"],
    ["GET", `/api/sso/oidc/${provider}/callback?state=s`, "/api/sso/oidc/{provider_id}/callback"],
    ["GET", `/api/sso/saml/${provider}/metadata`, "/api/sso/saml/{provider_id}/metadata"],
    ["GET", `/api/sso/saml/${provider}/post`, "/api/sso/saml/{provider_id}/post"],
    ["POST", `/api/sso/saml/${provider}/acs`, "/api/sso/saml/{provider_id}/acs"],
    ["GET", "/api/v1/openapi.json", "/api/v1/openapi.json"],
    ["GET", "/api/no/such/route", "{unmatched}"],
  ];
  const before = await scrape(`Bearer ${TOKEN}`);
  for (const [method, path] of requests) expect((await fetch(`${base}${path}`, { method })).status).toBe(404);
  const { text } = await scrape(`Bearer ${TOKEN}`);
  for (const [method, , route] of requests) {
    const labels = { method, route, status: "404" };
    expect(sample(text, "http_requests_total", labels)! - (sample(before.text, "http_requests_total", labels) ?? 0), route).toBe(1);
  }
  expect(text).not.toContain(provider);
});

test("log streams: batches by type and outcome, events sent, and the lag read at scrape time", async () => {
  const hec = await startSplunkHec({ token: "metrics-hec-token" });
  try {
    const { tenant, admin } = await tenantWithMembers();
    const api = client(base, admin.token);
    const events = Array.from({ length: 40 }, (_, i) => ({ event_type: "metrics.streamed", actor: { id: `m-${i}` } }));
    expect((await api.post(`/api/v1/tenants/${tenant.id}/audit/batch`, { events })).status).toBe(201);
    const prisma = await db();
    await prisma.logStream.create({
      data: {
        tenantId: tenant.id,
        name: "Metrics",
        type: "splunk_hec",
        config: { url: hec.url },
        secretsCiphertext: encryptSecret(JSON.stringify({ token: "metrics-hec-token" })),
      },
    });
    const before = await scrape(`Bearer ${TOKEN}`);
    const lagBefore = sample(before.text, "log_stream_lag_events", { type: "splunk_hec" }) ?? 0;
    expect(lagBefore).toBeGreaterThanOrEqual(40);
    const sentBefore = sample(before.text, "log_stream_events_sent_total", { type: "splunk_hec" }) ?? 0;

    hec.script.push({ status: 503, body: { text: "Server is busy", code: 9 } });
    await deliverDueStreams(await database(), { limit: 100 });
    await prisma.$executeRaw`UPDATE log_streams SET next_attempt_at = now() WHERE tenant_id = ${tenant.id}::uuid`;
    while ((await deliverDueStreams(await database(), { limit: 100 })).sent);

    const { text } = await scrape(`Bearer ${TOKEN}`);
    expect(sample(text, "log_stream_events_sent_total", { type: "splunk_hec" })! - sentBefore).toBeGreaterThanOrEqual(40);
    expect(sample(text, "log_stream_batches_total", { type: "splunk_hec", outcome: "failed" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "log_stream_batches_total", { type: "splunk_hec", outcome: "succeeded" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "log_stream_batch_duration_seconds_count", { type: "splunk_hec" })).toBeGreaterThanOrEqual(2);
    expect(sample(text, "log_stream_lag_events", { type: "splunk_hec" })).toBeLessThan(lagBefore);
    expect(text).not.toContain(tenant.id);
  } finally {
    await hec.close();
  }
});
