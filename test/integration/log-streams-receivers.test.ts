/**
 * The test receivers of the SIEM sinks (test/support/log-receivers.ts) checked against the
 * vendors' own clients first: what `@datadog/datadog-api-client` (LogsApi.submitLog) and Splunk's
 * `splunk-logging` send is accepted and read back as they meant it, and their errors come back as
 * those clients expect them. Only then do the sinks' tests against the same receivers mean much.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { client as datadog, v2 } from "@datadog/datadog-api-client";
import splunk, { type SplunkPayload } from "splunk-logging";
import { startDatadogIntake, startSplunkHec, type DatadogIntake, type SplunkHec } from "../support/log-receivers.ts";

describe("the Datadog intake receiver, with Datadog's client", () => {
  const apiKey = "dd-key-0123456789abcdef";
  let intake: DatadogIntake;
  beforeAll(async () => {
    intake = await startDatadogIntake({ apiKey });
  });
  afterAll(() => intake.close());

  const logsApi = (key = apiKey) =>
    new v2.LogsApi(
      datadog.createConfiguration({ authMethods: { apiKeyAuth: key }, baseServer: new datadog.BaseServerConfiguration(intake.url, {}) }),
    );

  test("accepts a gzip'd array of log items with their attributes, as submitLog sends it", async () => {
    const before = intake.logs.length;
    const answer = await logsApi().submitLog({
      body: [
        { ddsource: "nginx", ddtags: "env:staging,version:5.1", hostname: "i-012345678", message: "first", service: "payment" },
        { ddsource: "nginx", message: "second", additionalProperties: { sequence: 2, nested: { a: 1 } } },
      ],
      contentEncoding: "gzip",
    });
    expect(answer).toEqual({});
    const last = intake.requests.at(-1)!;
    expect(last).toMatchObject({ path: "/api/v2/logs", status: 202 });
    expect(last.headers["dd-api-key"]).toBe(apiKey);
    expect(last.headers["content-encoding"]).toBe("gzip");
    expect(intake.logs.slice(before).map((l) => l.entry)).toEqual([
      { ddsource: "nginx", ddtags: "env:staging,version:5.1", hostname: "i-012345678", message: "first", service: "payment" },
      { ddsource: "nginx", message: "second", sequence: 2, nested: { a: 1 } },
    ]);
  });

  test("accepts an uncompressed array too", async () => {
    const before = intake.logs.length;
    await logsApi().submitLog({ body: [{ message: "plain" }] });
    expect(intake.requests.at(-1)!.headers["content-encoding"]).toBeUndefined();
    expect(intake.logs.slice(before).map((l) => l.entry.message)).toEqual(["plain"]);
  });

  test("refuses a wrong API key with 403 and Datadog's error body", async () => {
    const error = await logsApi("wrong")
      .submitLog({ body: [{ message: "x" }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 403, body: { errors: [{ status: "403", title: "Forbidden" }] } });
  });

  test("refuses a payload over 5 MB uncompressed with 413, and more than 1,000 entries", async () => {
    const big = "x".repeat(900_000);
    const body = Array.from({ length: 6 }, () => ({ message: big }));
    expect(
      await logsApi()
        .submitLog({ body, contentEncoding: "gzip" })
        .catch((e: unknown) => e),
    ).toMatchObject({ code: 413 });
    const many = Array.from({ length: 1001 }, (_, i) => ({ message: `m${i}` }));
    expect(
      await logsApi()
        .submitLog({ body: many })
        .catch((e: unknown) => e),
    ).toMatchObject({ code: 400 });
  });

  test("gives scripted answers (429 with Retry-After) as the client sees them", async () => {
    intake.script.push({ status: 429, headers: { "retry-after": "7" }, body: { errors: [{ status: "429", title: "Too Many Requests" }] } });
    const error = await logsApi()
      .submitLog({ body: [{ message: "x" }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 429 });
  });
});

describe("the Splunk HEC receiver, with splunk-logging", () => {
  const token = randomUUID();
  let hec: SplunkHec;
  let acking: SplunkHec;
  beforeAll(async () => {
    hec = await startSplunkHec({ token, maxContentLength: 200_000 });
    acking = await startSplunkHec({ token, ack: true });
  });
  afterAll(async () => {
    await hec.close();
    await acking.close();
  });

  /** Sends the payloads as one batch through Splunk's logger; resolves with what its callback got. */
  function sendBatch(url: string, payloads: SplunkPayload[], options: { token?: string; headers?: Record<string, string> } = {}) {
    const logger = new splunk.Logger({ token: options.token ?? token, url, maxBatchCount: payloads.length, maxRetries: 0 });
    logger.error = () => {}; // its default prints Splunk's refusals; the callback below gets them too
    if (options.headers) logger.requestOptions.headers = { ...options.headers };
    return new Promise<{ status: number | undefined; body: unknown }>((resolve, reject) => {
      payloads.forEach((payload, i) =>
        logger.send(
          payload,
          i === payloads.length - 1
            ? (error, response, body) => (error ? reject(error) : resolve({ status: response?.statusCode, body }))
            : undefined,
        ),
      );
    });
  }

  test("accepts a batch of concatenated events with their metadata", async () => {
    const answer = await sendBatch(hec.url, [
      {
        message: { action: "login", user: "ada" },
        metadata: { source: "app", sourcetype: "audit", index: "main", host: "web-1", time: 1_700_000_000_123 },
      },
      { message: "plain text", severity: "warn" },
    ]);
    expect(answer).toEqual({ status: 200, body: { text: "Success", code: 0 } });
    const request = hec.requests.at(-1)!;
    expect(request.path).toBe("/services/collector/event/1.0");
    expect(request.headers.authorization).toBe(`Splunk ${token}`);
    const events = hec.events.filter((e) => e.request === hec.requests.length - 1).map((e) => e.event);
    expect(events).toEqual([
      {
        time: "1700000000.123",
        source: "app",
        sourcetype: "audit",
        index: "main",
        host: "web-1",
        event: { message: { action: "login", user: "ada" }, severity: "info" },
      },
      { time: expect.stringMatching(/^\d+\.\d+$/), event: { message: "plain text", severity: "warn" } },
    ]);
  });

  test("answers a wrong token with 403 code 4, as the logger reports it", async () => {
    expect(await sendBatch(hec.url, [{ message: "x" }], { token: "wrong" })).toEqual({
      status: 403,
      body: { text: "Invalid token", code: 4 },
    });
  });

  test("refuses a body over max_content_length with 413", async () => {
    const answer = await sendBatch(hec.url, [{ message: "y".repeat(250_000) }]);
    expect(answer.status).toBe(413);
  });

  test("answers a scripted busy server with 503 code 9", async () => {
    hec.script.push({ status: 503, body: { text: "Server is busy", code: 9 }, headers: { "retry-after": "3" } });
    expect(await sendBatch(hec.url, [{ message: "x" }])).toEqual({ status: 503, body: { text: "Server is busy", code: 9 } });
  });

  test("with acknowledgement on: a channel is required, each request gets an ackId, and /ack reports it once", async () => {
    expect(await sendBatch(acking.url, [{ message: "x" }])).toEqual({ status: 400, body: { text: "Data channel is missing", code: 10 } });
    const channel = randomUUID();
    const answer = await sendBatch(acking.url, [{ message: "a" }, { message: "b" }], { headers: { "X-Splunk-Request-Channel": channel } });
    expect(answer).toEqual({ status: 200, body: { text: "Success", code: 0, ackId: 0 } });
    const ack = async (acks: number[], channelId = channel) => {
      const res = await fetch(`${acking.url}/services/collector/ack`, {
        method: "POST",
        headers: { authorization: `Splunk ${token}`, "x-splunk-request-channel": channelId },
        body: JSON.stringify({ acks }),
      });
      return { status: res.status, body: await res.json() };
    };
    expect(await ack([0, 1])).toEqual({ status: 200, body: { acks: { "0": true, "1": false } } });
    expect(await ack([0])).toEqual({ status: 200, body: { acks: { "0": false } } });
    expect(await ack([0], randomUUID())).toEqual({ status: 200, body: { acks: { "0": false } } });
    expect(
      (await fetch(`${hec.url}/services/collector/ack`, { method: "POST", headers: { authorization: `Splunk ${token}` }, body: "{}" }))
        .status,
    ).toBe(400);
  });
});
