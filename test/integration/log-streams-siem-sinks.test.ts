/**
 * The Datadog and Splunk HEC sinks against local intakes faithful to the vendors' (proven with the
 * vendors' clients in log-streams-receivers.test.ts), with batches of real audit events: what the
 * receiver gets (content, order, auth), the intakes' size limits (a batch cut into requests),
 * Retry-After, 5xx, a bad token, HEC's indexer acknowledgement, deadlines.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { auditBatch } from "../support/stream-batches.ts";
import { DATADOG_INTAKE_LIMITS, startDatadogIntake, startSplunkHec, type DatadogIntake, type SplunkHec } from "../support/log-receivers.ts";
import { sendToDatadog } from "../../server/log-streams/sinks/datadog.ts";
import { sendToSplunk, SPLUNK_MAX_REQUEST_BYTES } from "../../server/log-streams/sinks/splunk.ts";
import type { StreamBatch } from "../../server/log-streams/sinks/types.ts";

const api = apiServer();
const timeout = { timeoutMs: 10_000 };
let small: StreamBatch;
let large: StreamBatch;

beforeAll(async () => {
  small = await auditBatch(api.url, { events: 5, digest: true });
  // ~5.6 MB of events: over Datadog's 5 MB per request and HEC's 1 MB.
  large = await auditBatch(api.url, { events: 180, detailsBytes: 30_000 });
}, 120_000);

describe("Datadog", () => {
  const apiKey = "dd-api-key-for-tests";
  let intake: DatadogIntake;
  beforeAll(async () => {
    intake = await startDatadogIntake({ apiKey });
  });
  afterAll(() => intake.close());
  afterEach(() => {
    intake.script.length = 0;
  });
  const config = () => ({
    site: "datadoghq.eu" as const,
    api_key: apiKey,
    tags: ["team:security", "env:prod"],
    endpoint: `${intake.url}/api/v2/logs`,
  });
  const fresh = () => {
    intake.logs.length = 0;
    intake.requests.length = 0;
  };

  test("each event is one log entry: the event's JSON as message, the chain as attributes, the digest on the last", async () => {
    fresh();
    const answer = await sendToDatadog(config(), small, timeout);
    expect(answer).toEqual({ ok: true, status: 202, body: "{}", error: null, retryAfter: null });
    expect(intake.requests).toHaveLength(1);
    expect(intake.requests[0]!.headers["dd-api-key"]).toBe(apiKey);
    expect(intake.requests[0]!.headers["content-encoding"]).toBe("gzip");
    const entries = intake.logs.map((l) => l.entry);
    expect(entries.map((e) => e.sequence)).toEqual(small.events.map((e) => e.sequence));
    entries.forEach((entry, i) => {
      const event = small.events[i]!;
      expect(JSON.parse(entry.message as string)).toEqual(event);
      expect(entry).toMatchObject({
        ddsource: "control-plane",
        service: "control-plane",
        ddtags: `team:security,env:prod,tenant_id:${small.tenant_id}`,
        sequence: event.sequence,
        prev_hash: event.prev_hash,
        hash: event.hash,
        event_type: "invoice.paid",
        tenant_id: small.tenant_id,
      });
      expect("audit_digest" in entry).toBe(i === entries.length - 1);
    });
    expect(entries.at(-1)).toMatchObject({
      audit_digest: small.digest,
      audit_batch: { from_sequence: small.from_sequence, to_sequence: small.to_sequence },
    });
    expect(
      entries.every((e) => e.prev_hash === (e === entries[0] ? small.events[0]!.prev_hash : entries[entries.indexOf(e) - 1]!.hash)),
    ).toBe(true);
  });

  test("a batch over 5 MB goes as several requests within the limits, in order, none truncated", async () => {
    fresh();
    const answer = await sendToDatadog({ ...config(), service: "billing" }, large, { timeoutMs: 30_000 });
    expect(answer.ok, answer.error ?? "").toBe(true);
    expect(intake.requests.length).toBeGreaterThanOrEqual(2);
    expect(intake.requests.every((r) => r.status === 202)).toBe(true);
    expect(intake.logs.map((l) => l.entry.sequence)).toEqual(large.events.map((e) => e.sequence));
    expect(intake.logs.some((l) => l.truncated)).toBe(false);
    expect(intake.logs.every((l) => l.entry.service === "billing")).toBe(true);
    expect(DATADOG_INTAKE_LIMITS.payloadBytes).toBe(5_000_000);
  });

  test("429 with Retry-After: failed, with the seconds to wait and Datadog's answer", async () => {
    intake.script.push({ status: 429, headers: { "retry-after": "7" }, body: { errors: [{ status: "429", title: "Too Many Requests" }] } });
    const answer = await sendToDatadog(config(), small, timeout);
    expect(answer).toMatchObject({ ok: false, status: 429, retryAfter: 7 });
    expect(answer.error).toMatch(/Datadog answered 429 \(too many requests, retry later\): Too Many Requests/);
    expect(answer.body).toContain("Too Many Requests");
  });

  test("5xx: failed, to be retried; a later request of a split batch failing fails the whole batch", async () => {
    intake.script.push({ status: 503, body: "upstream unavailable" });
    expect(await sendToDatadog(config(), small, timeout)).toMatchObject({
      ok: false,
      status: 503,
      retryAfter: null,
      body: "upstream unavailable",
    });
    intake.script.push(null, { status: 500, body: "" });
    const answer = await sendToDatadog(config(), large, { timeoutMs: 30_000 });
    expect(answer).toMatchObject({ ok: false, status: 500 });
    expect(answer.error).toMatch(/request 2 of \d/);
  });

  test("a wrong API key: 403, said so, with Datadog's answer", async () => {
    const answer = await sendToDatadog({ ...config(), api_key: "not-the-key" }, small, timeout);
    expect(answer).toMatchObject({ ok: false, status: 403, retryAfter: null });
    expect(answer.error).toMatch(/the API key was refused.*Invalid API Key/);
    expect(answer.body).not.toContain("not-the-key");
  });

  test("an entry over 1 MB is not sent (Datadog would truncate it); an empty batch sends nothing", async () => {
    fresh();
    const huge = { ...small.events[0]!, details: { filler: "y".repeat(1_100_000) } };
    const answer = await sendToDatadog(config(), { ...small, events: [huge, ...small.events.slice(1)] }, timeout);
    expect(answer).toMatchObject({ ok: false, status: null });
    expect(answer.error).toMatch(new RegExp(`event ${huge.sequence} is over Datadog's 1 MB per log entry`));
    expect(await sendToDatadog(config(), { ...small, events: [], digest: null }, timeout)).toMatchObject({ ok: true, status: null });
    expect(intake.requests).toHaveLength(0);
  });

  test("a test batch is marked on every entry", async () => {
    fresh();
    const probe = { ...small, events: small.events.slice(0, 2), digest: null, test: true };
    expect((await sendToDatadog(config(), probe, timeout)).ok).toBe(true);
    expect(intake.logs.map((l) => l.entry.log_stream_test)).toEqual([true, true]);
  });

  test("a receiver slower than the deadline: timeout", async () => {
    intake.script.push({ status: 202, body: {}, delayMs: 3000 });
    expect(await sendToDatadog(config(), small, { timeoutMs: 300 })).toMatchObject({ ok: false, status: null, error: "timeout" });
  });
});

describe("Splunk HEC", () => {
  const token = "11111111-2222-3333-4444-555555555555";
  let hec: SplunkHec;
  let acking: SplunkHec;
  beforeAll(async () => {
    hec = await startSplunkHec({ token, indexes: ["main", "audit"] });
    acking = await startSplunkHec({ token, ack: true, indexAfterMs: 400 });
  });
  afterAll(async () => {
    await hec.close();
    await acking.close();
  });
  afterEach(() => {
    hec.script.length = 0;
  });
  const fresh = (receiver: SplunkHec) => {
    receiver.events.length = 0;
    receiver.requests.length = 0;
  };

  test("events in order with time, source, sourcetype, index and indexed fields; the digest as one more event", async () => {
    fresh(hec);
    const answer = await sendToSplunk({ url: `${hec.url}/`, token, index: "audit", sourcetype: "acme:audit" }, small, timeout);
    expect(answer).toEqual({ ok: true, status: 200, body: '{"text":"Success","code":0}', error: null, retryAfter: null });
    expect(hec.requests).toHaveLength(1);
    expect(hec.requests[0]).toMatchObject({ path: "/services/collector/event", status: 200 });
    expect(hec.requests[0]!.headers.authorization).toBe(`Splunk ${token}`);
    expect(hec.requests[0]!.headers["x-splunk-request-channel"]).toBe(small.stream_id);
    const received = hec.events.map((e) => e.event);
    expect(received).toHaveLength(small.events.length + 1);
    small.events.forEach((event, i) => {
      expect(received[i]).toEqual({
        time: Date.parse(event.timestamp) / 1000,
        source: "control-plane",
        sourcetype: "acme:audit",
        index: "audit",
        event,
        fields: {
          sequence: String(event.sequence),
          prev_hash: event.prev_hash,
          hash: event.hash,
          event_type: event.event_type,
          tenant_id: small.tenant_id,
        },
      });
    });
    expect(received.at(-1)).toMatchObject({
      sourcetype: "control_plane:digest",
      index: "audit",
      event: small.digest,
      fields: {
        to_sequence: String(small.digest!.to_sequence),
        batch_from_sequence: String(small.from_sequence),
        batch_to_sequence: String(small.to_sequence),
      },
    });
  });

  test("with indexer acknowledgement: sent only once /ack says every request is indexed", async () => {
    fresh(acking);
    const started = Date.now();
    const answer = await sendToSplunk({ url: acking.url, token }, large, { timeoutMs: 20_000 });
    expect(answer.ok, answer.error ?? "").toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    const ackIds = [...new Set(acking.events.map((e) => e.ackId))];
    expect(ackIds.length).toBeGreaterThanOrEqual(2);
    expect(acking.ackQueries.length).toBeGreaterThanOrEqual(1);
    expect(new Set(acking.ackQueries.flat())).toEqual(new Set(ackIds));
    expect(acking.events.every((e) => e.channel === large.stream_id)).toBe(true);
  });

  test("not acknowledged before the deadline: failed, to be resent whole", async () => {
    const never = await startSplunkHec({ token, ack: true, indexAfterMs: Infinity });
    try {
      const answer = await sendToSplunk({ url: never.url, token }, small, { timeoutMs: 800 });
      expect(answer).toMatchObject({ ok: false });
      expect(answer.error).toMatch(/1 of 1 requests not acknowledged by Splunk's indexers in time/);
      expect(never.ackQueries.length).toBeGreaterThanOrEqual(2);
    } finally {
      await never.close();
    }
  });

  test("a batch over HEC's max_content_length goes as several requests, each within it, in order", async () => {
    fresh(hec);
    const answer = await sendToSplunk({ url: hec.url, token }, large, { timeoutMs: 30_000 });
    expect(answer.ok, answer.error ?? "").toBe(true);
    expect(hec.requests.length).toBeGreaterThanOrEqual(6);
    expect(hec.requests.every((r) => r.bytes <= SPLUNK_MAX_REQUEST_BYTES && r.status === 200)).toBe(true);
    expect(hec.events.map((e) => (e.event.event as { sequence: number }).sequence)).toEqual(large.events.map((e) => e.sequence));
  });

  test("a busy server (503, code 9) with Retry-After: failed, with the wait", async () => {
    hec.script.push({ status: 503, body: { text: "Server is busy", code: 9 }, headers: { "retry-after": "3" } });
    // (An endpoint pasted into the URL is tolerated.)
    const answer = await sendToSplunk({ url: `${hec.url}/services/collector/event`, token }, small, timeout);
    expect(hec.requests.at(-1)!.path).toBe("/services/collector/event");
    expect(answer).toMatchObject({ ok: false, status: 503, retryAfter: 3, body: '{"text":"Server is busy","code":9}' });
    expect(answer.error).toMatch(/code 9 \(the server is busy, retry later\)/);
  });

  test("a bad token (403, code 4), an index the token may not use (400, code 7), a body too large (413)", async () => {
    expect(await sendToSplunk({ url: hec.url, token: "wrong" }, small, timeout)).toMatchObject({
      ok: false,
      status: 403,
      error: expect.stringMatching(/code 4 \(the token was refused\)/),
    });
    expect(await sendToSplunk({ url: hec.url, token, index: "secret" }, small, timeout)).toMatchObject({
      ok: false,
      status: 400,
      error: expect.stringMatching(/code 7/),
    });
    const tiny = await startSplunkHec({ token, maxContentLength: 2000 });
    try {
      const answer = await sendToSplunk({ url: tiny.url, token }, small, timeout);
      expect(answer).toMatchObject({ ok: false, status: 413 });
      expect(answer.body).toMatch(/too large \(maximum is 2000\)/);
    } finally {
      await tiny.close();
    }
  });
});
