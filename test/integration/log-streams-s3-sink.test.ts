/**
 * The S3 sink against a real S3-compatible server (s3rver, its SigV4 checks in
 * test/support/s3-server.ts), with batches cut from a real tenant chain, read back with the AWS SDK:
 * the key layout, gzip'd NDJSON, the metadata, a resent batch replacing itself, the receiver's
 * errors (wrong secret, throttling), and the chain proven from the objects alone.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, tenantWithMembers } from "../support/fixtures.ts";
import { startS3, type TestS3 } from "../support/s3-server.ts";
import {
  appendEvents,
  batchesOf,
  batchOf,
  chainEvents,
  fetchJwks,
  signDigest,
  verifyReceived,
  verifyScript,
} from "../support/stream-batches.ts";
import { sendToS3 } from "../../server/log-streams/sinks/s3.ts";
import type { LogStreamConfigs } from "../../server/log-streams/schemas.ts";
import type { AuditEvent } from "../../server/audit/schemas.ts";
import type { AuditDigest } from "../../server/audit/digest-schemas.ts";
import { env } from "../../server/env.ts";
import { closeOutboundPools } from "../../server/outbound/guard.ts";

const api = apiServer();
const BUCKET = "audit-lake";
const options = { timeoutMs: 10_000 };
let s3: TestS3;
let tenantId: string;
let events: AuditEvent[];
let digest: AuditDigest;
let jwks: { keys: JsonWebKey[] };

beforeAll(async () => {
  s3 = await startS3({ buckets: [BUCKET] });
  const world = await tenantWithMembers();
  tenantId = world.tenant.id;
  const admin = client(api.url, world.admin.token);
  await appendEvents(admin, tenantId, 40);
  digest = await signDigest(admin, tenantId);
  await appendEvents(admin, tenantId, 5, 41); // after the digest: sent, not yet proven
  events = await chainEvents(tenantId);
  jwks = await fetchJwks(admin);
});
afterAll(async () => {
  closeOutboundPools();
  await s3?.close();
});

function config(overrides: Partial<LogStreamConfigs["s3"]> = {}): LogStreamConfigs["s3"] {
  return {
    bucket: BUCKET,
    region: s3.region,
    endpoint: s3.endpoint,
    path_style: true,
    access_key_id: s3.credentials.accessKeyId,
    secret_access_key: s3.credentials.secretAccessKey,
    ...overrides,
  };
}

const datePath = (iso: string) => iso.slice(0, 10).replace(/-/g, "/");

describe("one batch, one object", () => {
  test("is gzip'd NDJSON of the events in order, keyed {prefix}/{tenant}/{yyyy}/{mm}/{dd}/{from}-{to}.ndjson.gz", async () => {
    const batch = batchOf(events.slice(0, 10), { digest });
    const answer = await sendToS3(config({ prefix: "siem/control-plane" }), batch, options);
    expect(answer).toMatchObject({ ok: true, status: 200, error: null, retryAfter: null });

    const key = `siem/control-plane/${tenantId}/${datePath(events[0]!.timestamp)}/1-10.ndjson.gz`;
    expect(await s3.keys(BUCKET, "siem/")).toEqual([key]);
    const object = await s3.get(BUCKET, key);
    expect(object.body.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b])); // gzip's magic
    expect(object.contentType).toBe("application/gzip");
    const lines = object.text.split("\n");
    expect(lines.pop()).toBe(""); // every line ends with \n
    expect(lines.map((line) => JSON.parse(line))).toEqual(events.slice(0, 10));
    expect(object.metadata).toEqual({ "from-sequence": "1", "to-sequence": "10", "event-count": "10", digest: digest.jws });
  });

  test("a resent batch replaces its object (same key, one object)", async () => {
    const batch = batchOf(events.slice(10, 20), { digest });
    const prefix = "resend";
    const before = s3.puts.length;
    expect((await sendToS3(config({ prefix }), batch, options)).ok).toBe(true);
    expect((await sendToS3(config({ prefix }), batch, options)).ok).toBe(true);
    expect(s3.puts.slice(before).map((put) => put.status)).toEqual([200, 200]);
    expect(await s3.keys(BUCKET, `${prefix}/`)).toEqual([`${prefix}/${tenantId}/${datePath(events[10]!.timestamp)}/11-20.ndjson.gz`]);
  });

  test("without a prefix the key starts at the tenant id (no leading slash)", async () => {
    expect((await sendToS3(config(), batchOf(events.slice(20, 21)), options)).ok).toBe(true);
    expect(await s3.keys(BUCKET, `${tenantId}/`)).toEqual([`${tenantId}/${datePath(events[20]!.timestamp)}/21-21.ndjson.gz`]);
  });

  test("a test batch goes under _test/, apart from the log", async () => {
    const answer = await sendToS3(
      config({ prefix: "t" }),
      { ...batchOf(events.slice(0, 1)), from_sequence: 0, to_sequence: 0, test: true },
      options,
    );
    expect(answer.ok).toBe(true);
    const [key, ...others] = await s3.keys(BUCKET, "t/");
    expect(others).toEqual([]);
    expect(key).toMatch(new RegExp(`^t/${tenantId}/_test/\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z\\.ndjson\\.gz$`));
    expect((await s3.get(BUCKET, key!)).metadata).toMatchObject({ test: "true", "event-count": "1" });
  });
});

describe("what the receiver answered", () => {
  test("a wrong secret key is refused by the receiver's signature check; the secret is nowhere in the answer", async () => {
    const wrong = "wrong/SECRET+key-that-must-not-leak";
    const answer = await sendToS3(config({ prefix: "denied", secret_access_key: wrong }), batchOf(events.slice(0, 3)), options);
    expect(answer).toMatchObject({ ok: false, status: 403, retryAfter: null });
    expect(answer.error).toMatch(/^SignatureDoesNotMatch: The request signature we calculated does not match/);
    expect(JSON.stringify(answer)).not.toContain(wrong);
    expect(await s3.keys(BUCKET, "denied/")).toEqual([]);
  });

  test("an unknown access key answers S3's InvalidAccessKeyId", async () => {
    const answer = await sendToS3(config({ access_key_id: "AKIANOTKNOWN0000" }), batchOf(events.slice(0, 1)), options);
    expect(answer).toMatchObject({ ok: false, status: 403 });
    expect(answer.error).toMatch(/^InvalidAccessKeyId: /);
  });

  test("503 SlowDown with Retry-After: failed, retry after what it asked; the resend then lands", async () => {
    s3.failNext({ status: 503, code: "SlowDown", message: "Please reduce your request rate.", headers: { "retry-after": "7" } });
    const batch = batchOf(events.slice(0, 2));
    const answer = await sendToS3(config({ prefix: "slow" }), batch, options);
    expect(answer).toMatchObject({ ok: false, status: 503, error: "SlowDown: Please reduce your request rate.", retryAfter: 7 });
    expect(answer.body).toContain("<Code>SlowDown</Code>");
    expect(await s3.keys(BUCKET, "slow/")).toEqual([]);
    expect((await sendToS3(config({ prefix: "slow" }), batch, options)).ok).toBe(true);
    expect(await s3.keys(BUCKET, "slow/")).toHaveLength(1);
  });

  test("500 without Retry-After leaves the wait to the engine's schedule", async () => {
    s3.failNext({ status: 500, code: "InternalError", message: "We encountered an internal error. Please try again." });
    const answer = await sendToS3(config({ prefix: "err" }), batchOf(events.slice(0, 1)), options);
    expect(answer).toMatchObject({
      ok: false,
      status: 500,
      error: "InternalError: We encountered an internal error. Please try again.",
      retryAfter: null,
    });
  });

  test("a receiver that does not answer: no status, the connection's failure", async () => {
    const closed = `http://127.0.0.1:${new URL(s3.endpoint).port === "1" ? 2 : 1}`;
    const answer = await sendToS3(config({ endpoint: closed }), batchOf(events.slice(0, 1)), options);
    expect(answer).toMatchObject({ ok: false, status: null, body: null, retryAfter: null });
    expect(answer.error).toMatch(/connection failed/);
  });

  test("a loopback endpoint is refused by the SSRF guard unless OUTBOUND_ALLOW_PRIVATE", async () => {
    env().OUTBOUND_ALLOW_PRIVATE = false;
    try {
      const answer = await sendToS3(config({ prefix: "ssrf" }), batchOf(events.slice(0, 1)), options);
      expect(answer).toMatchObject({ ok: false, status: null });
      expect(answer.error).toMatch(/^ssrf_refused: .*OUTBOUND_ALLOW_PRIVATE=true allows them/);
    } finally {
      env().OUTBOUND_ALLOW_PRIVATE = true;
    }
    expect(await s3.keys(BUCKET, "ssrf/")).toEqual([]);
  });
});

describe("the receiver's copy proves itself", () => {
  const prefix = "proof";
  let dir: string;
  let files: string[] = [];
  let received: AuditEvent[] = [];
  let digests: string[] = [];
  let jwksFile: string;
  let digestsFile: string;

  beforeAll(async () => {
    for (const batch of batchesOf(events, 7, { digest })) expect((await sendToS3(config({ prefix }), batch, options)).ok).toBe(true);
    const keys = await s3.keys(BUCKET, `${prefix}/`);
    expect(keys).toHaveLength(Math.ceil(events.length / 7));
    // As `aws s3 cp --recursive` would leave them: the objects under their keys, untouched.
    dir = mkdtempSync(path.join(tmpdir(), "s3-copy-"));
    const objects = await Promise.all(keys.map((key) => s3.get(BUCKET, key)));
    files = keys.map((key, i) => {
      const file = path.join(dir, key);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, objects[i]!.body);
      return file;
    });
    received = objects.flatMap((o) =>
      o.text
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as AuditEvent),
    );
    digests = [...new Set(objects.map((o) => o.metadata.digest!))];
    jwksFile = path.join(dir, "jwks.json");
    writeFileSync(jwksFile, JSON.stringify(jwks));
    digestsFile = path.join(dir, "digests.txt");
    writeFileSync(digestsFile, digests.join("\n"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("the objects as downloaded pass scripts/verify-audit-export.mjs: complete and unaltered up to the digest", async () => {
    expect(digests).toEqual([digest.jws]);
    expect(received.map((e) => e.sequence).sort((a, b) => a - b)).toEqual(events.map((e) => e.sequence));
    expect(await verifyScript(files, jwksFile, digestsFile)).toEqual({
      code: 0,
      out: expect.stringMatching(
        new RegExp(`^OK: tenant ${tenantId}, sequences 1-${digest.to_sequence} complete and unaltered \\(40 events`),
      ),
    });
  });

  test("an object lost, or an event altered in the bucket, is caught at its sequence", async () => {
    const lost = files.filter((file) => !file.endsWith("/8-14.ndjson.gz"));
    expect(lost).toHaveLength(files.length - 1);
    expect(await verifyScript(lost, jwksFile, digestsFile)).toEqual({
      code: 1,
      out: "FAILED at sequence 8: the event is missing from the export",
    });
    const altered = received.map((e) => (e.sequence === 23 ? { ...e, actor: { ...e.actor, id: "someone-else" } } : e));
    expect(() => verifyReceived(altered, digests, jwks)).toThrow("at sequence 23: the row's fields do not hash to its hash (altered)");
  });
});
