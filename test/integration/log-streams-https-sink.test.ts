/**
 * The HTTPS sink against a real local HTTP receiver, with batches cut from a real tenant chain:
 * the JSON body, Standard Webhooks signatures verified by the `standardwebhooks` package, the
 * batch's stable webhook-id, what the receiver's answers mean (Retry-After, errors, 1 KiB), and
 * the receiver's copy proven with the auditors' code.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { Webhook } from "standardwebhooks";
import { apiServer } from "../support/api-server.ts";
import { client, tenantWithMembers } from "../support/fixtures.ts";
import { startReceiver, type Receiver, type Received } from "../support/webhook-receiver.ts";
import { appendEvents, batchesOf, batchOf, chainEvents, fetchJwks, signDigest, verifyReceived } from "../support/stream-batches.ts";
import { sendToHttps } from "../../server/log-streams/sinks/https.ts";
import type { AuditEvent } from "../../server/audit/schemas.ts";
import type { AuditDigest } from "../../server/audit/digest-schemas.ts";
import { env } from "../../server/env.ts";
import { database } from "../../server/db/client.ts";
import { deliverDueStreams } from "../../server/log-streams/engine.ts";
import { closeOutboundPools } from "../../server/outbound/guard.ts";

process.env.LOG_STREAM_BATCH_WAIT_MS = "0";

const api = apiServer();
const options = { timeoutMs: 5_000 };
const secret = `whsec_${randomBytes(24).toString("base64")}`;
let receiver: Receiver;
let tenantId: string;
let events: AuditEvent[];
let digest: AuditDigest;
let jwks: { keys: JsonWebKey[] };

beforeAll(async () => {
  receiver = await startReceiver();
  const world = await tenantWithMembers();
  tenantId = world.tenant.id;
  const admin = client(api.url, world.admin.token);
  await appendEvents(admin, tenantId, 30);
  digest = await signDigest(admin, tenantId);
  events = await chainEvents(tenantId);
  jwks = await fetchJwks(admin);
});
beforeEach(() => {
  receiver.received.length = 0;
  receiver.respond = () => ({ status: 200, body: "ok" });
});
afterAll(async () => {
  closeOutboundPools();
  await receiver?.close();
});

const headersOf = (r: Received) => Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));

describe("a batch as the receiver gets it", () => {
  test("one JSON POST of the range, digest and events, signed so the standardwebhooks package verifies it", async () => {
    const batch = batchOf(events.slice(0, 10), { digest });
    const answer = await sendToHttps({ url: `${receiver.url}/siem`, secret }, batch, options);
    expect(answer).toEqual({ ok: true, status: 200, body: "ok", error: null, retryAfter: null });

    const [received] = receiver.received;
    expect(received!.path).toBe("/siem");
    expect(received!.headers["content-type"]).toBe("application/json");
    expect(received!.headers["webhook-id"]).toBe(`${batch.stream_id}:1-10`);
    const verified = new Webhook(secret).verify(received!.body, headersOf(received!));
    expect(verified).toEqual({
      type: "audit_log.batch",
      stream_id: batch.stream_id,
      tenant_id: tenantId,
      from_sequence: 1,
      to_sequence: 10,
      digest,
      events: events.slice(0, 10),
    });
    expect(() => new Webhook(`whsec_${randomBytes(24).toString("base64")}`).verify(received!.body, headersOf(received!))).toThrow();
  });

  test("a resent batch carries the same webhook-id, freshly signed", async () => {
    const batch = batchOf(events.slice(10, 12));
    await sendToHttps({ url: receiver.url, secret }, batch, options);
    await sendToHttps({ url: receiver.url, secret }, batch, options);
    const [first, second] = receiver.received;
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    expect(second!.body).toBe(first!.body);
    for (const r of [first!, second!]) expect(new Webhook(secret).verify(r.body, headersOf(r))).toMatchObject({ from_sequence: 11 });
  });

  test("a secret that is not whsec_ signs with its bytes, as the package's raw format reads it", async () => {
    const raw = "plain-secret-of-the-siem-team";
    await sendToHttps({ url: receiver.url, secret: raw }, batchOf(events.slice(0, 1)), options);
    const [r] = receiver.received;
    expect(new Webhook(raw, { format: "raw" }).verify(r!.body, headersOf(r!))).toMatchObject({ to_sequence: 1 });
  });

  test("without a secret: unsigned, still identified", async () => {
    const batch = batchOf(events.slice(0, 2));
    await sendToHttps({ url: receiver.url }, batch, options);
    const [r] = receiver.received;
    expect(r!.headers["webhook-signature"]).toBeUndefined();
    expect(r!.headers["webhook-id"]).toBe(`${batch.stream_id}:1-2`);
    expect(JSON.parse(r!.body)).toMatchObject({ type: "audit_log.batch", digest: null });
  });

  test("a test batch says so in its type", async () => {
    const batch = { ...batchOf(events.slice(0, 1)), from_sequence: 0, to_sequence: 0, test: true };
    await sendToHttps({ url: receiver.url, secret }, batch, options);
    expect(new Webhook(secret).verify(receiver.received[0]!.body, headersOf(receiver.received[0]!))).toMatchObject({
      type: "audit_log.test",
      from_sequence: 0,
    });
  });
});

describe("what the receiver answered", () => {
  test("429 with Retry-After: failed, retry after the seconds asked", async () => {
    receiver.respond = () => ({ status: 429, body: '{"error":"slow down"}', headers: { "retry-after": "30" } });
    const answer = await sendToHttps({ url: receiver.url, secret }, batchOf(events.slice(0, 1)), options);
    expect(answer).toEqual({ ok: false, status: 429, body: '{"error":"slow down"}', error: "slow down", retryAfter: 30 });
  });

  test("503 with Retry-After as an HTTP date", async () => {
    const at = new Date(Date.now() + 120_000).toUTCString();
    receiver.respond = () => ({ status: 503, body: "maintenance", headers: { "retry-after": at } });
    const answer = await sendToHttps({ url: receiver.url }, batchOf(events.slice(0, 1)), options);
    expect(answer).toMatchObject({ ok: false, status: 503, error: "HTTP 503" });
    expect(answer.retryAfter).toBeGreaterThanOrEqual(110);
    expect(answer.retryAfter).toBeLessThanOrEqual(120);
  });

  test("keeps 1 KiB of a long answer, and never the secret a receiver echoes back", async () => {
    receiver.respond = (r) => ({
      status: 400,
      body: `bad signature for ${r.headers["webhook-signature"]} with ${secret} ${"x".repeat(5000)}`,
    });
    const answer = await sendToHttps({ url: receiver.url, secret }, batchOf(events.slice(0, 1)), options);
    expect(answer).toMatchObject({ ok: false, status: 400, error: "HTTP 400", retryAfter: null });
    expect(Buffer.byteLength(answer.body!)).toBeLessThanOrEqual(1024 + "[redacted]".length);
    expect(answer.body).toContain("[redacted]");
    expect(JSON.stringify(answer)).not.toContain(secret);
  });

  test("a receiver slower than the deadline: timeout, no status", async () => {
    receiver.respond = () => ({ status: 200, delayMs: 2_000 });
    const answer = await sendToHttps({ url: receiver.url }, batchOf(events.slice(0, 1)), { timeoutMs: 300 });
    expect(answer).toMatchObject({ ok: false, status: null, body: null, retryAfter: null });
    expect(answer.error).toBe("timeout");
  });

  test("a loopback receiver is refused by the SSRF guard unless OUTBOUND_ALLOW_PRIVATE", async () => {
    env().OUTBOUND_ALLOW_PRIVATE = false;
    try {
      const answer = await sendToHttps({ url: receiver.url, secret }, batchOf(events.slice(0, 1)), options);
      expect(answer.error).toMatch(/^ssrf_refused: /);
    } finally {
      env().OUTBOUND_ALLOW_PRIVATE = true;
    }
    expect(receiver.received).toEqual([]);
  });
});

test("the receiver's copy, batch by batch, verifies with the auditors' code", async () => {
  const streamId = randomUUID();
  for (const batch of batchesOf(events, 8, { digest, streamId }))
    expect((await sendToHttps({ url: receiver.url, secret }, batch, options)).ok).toBe(true);
  const bodies = receiver.received.map(
    (r) => new Webhook(secret).verify(r.body, headersOf(r)) as { events: AuditEvent[]; digest: AuditDigest },
  );
  expect(receiver.received.map((r) => r.headers["webhook-id"])).toEqual([
    `${streamId}:1-8`,
    `${streamId}:9-16`,
    `${streamId}:17-24`,
    `${streamId}:25-30`,
  ]);
  const copy = bodies.flatMap((b) => b.events);
  expect(verifyReceived(copy, [bodies.at(-1)!.digest.jws], jwks)).toMatchObject({
    firstSequence: 1,
    lastSequence: 30,
    events: 30,
    uncovered: 0,
  });
  expect(() => verifyReceived(copy.slice(1), [digest.jws], jwks)).toThrow("at sequence 1: the event is missing from the export");
});

test("run by the engine: a stream created over REST backfills in signed batches with contiguous ids", async () => {
  const world = await tenantWithMembers();
  const admin = client(api.url, world.admin.token);
  await appendEvents(admin, world.tenant.id, 2_500);
  expect((await admin.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
  const base = `/api/v1/tenants/${world.tenant.id}/log-streams`;
  const created = await admin.post(base, {
    name: "SIEM",
    type: "https",
    config: { url: `${receiver.url}/in`, secret },
    start_from: "oldest",
  });
  expect(created.status, created.text).toBe(201);
  expect(created.json.config).toEqual({ url: `${receiver.url}/in`, secret_set: true });
  const handle = await database();
  for (let i = 0; i < 20 && (await deliverDueStreams(handle, { limit: 10 })).sent > 0; i++);
  const stream = (await admin.get(`${base}/${created.json.id}`)).json;
  expect(stream).toMatchObject({ lag_events: 0, state: "active" });

  const bodies = receiver.received.map(
    (r) => new Webhook(secret).verify(r.body, headersOf(r)) as { from_sequence: number; to_sequence: number; events: AuditEvent[] },
  );
  const ids = receiver.received.map((r) => r.headers["webhook-id"]);
  expect(ids).toEqual(bodies.map((b) => `${created.json.id}:${b.from_sequence}-${b.to_sequence}`));
  expect(bodies.flatMap((b) => b.events.map((e) => e.sequence))).toEqual(Array.from({ length: stream.cursor_sequence }, (_, i) => i + 1));
});
