/**
 * A stream of type s3, created over REST with `start_from: oldest`, run by the engine against a
 * real S3-compatible server (s3rver behind SigV4 checks, test/support/s3-server.ts): a backfill of
 * 50,000 events lands as objects whose ranges follow one another with no gap or overlap, each
 * holding exactly its range in order, and the bucket's copy passes scripts/verify-audit-export.mjs.
 * S3 throttling the first batch (503 SlowDown, Retry-After) only delays it: the same range is sent
 * again and overwrites nothing but itself.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";
import { startS3, type TestS3 } from "../support/s3-server.ts";
import { fetchJwks, signDigest, verifyScript } from "../support/stream-batches.ts";
import { until } from "../support/until.ts";
import { database } from "../../server/db/client.ts";
import { deliverDueStreams } from "../../server/log-streams/engine.ts";
import { closeOutboundPools } from "../../server/outbound/guard.ts";

process.env.LOG_STREAM_BATCH_WAIT_MS = "0";

const api = apiServer();
const BUCKET = "audit-lake";
const EVENTS = 50_000;
let s3: TestS3;
let dir: string;
beforeAll(async () => {
  s3 = await startS3({ buckets: [BUCKET] });
  dir = mkdtempSync(path.join(tmpdir(), "s3-backfill-"));
});
afterAll(async () => {
  closeOutboundPools();
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Appends `count` events in one statement (the database chains them, as the audit tests' bulk seeds do). */
async function bulkAppend(tenantId: string, count: number, from: number) {
  const { sql } = await database();
  await sql.query(
    `INSERT INTO audit_events (tenant_id, event_type, actor_id, actor_email, ip_address, user_agent, target_type, target_id, target_name, details)
     SELECT $1::uuid, (ARRAY['invoice.paid', 'report.exported', 'user.login'])[1 + g % 3], 'actor-' || (g % 40), 'a' || (g % 40) || '@example.com',
            '10.0.' || (g % 200) || '.' || (g % 250), 'bulk/1.0', 'invoice', 'inv-' || g,
            CASE WHEN g % 5 = 0 THEN 'Invoice "' || g || '" é' END, jsonb_build_object('g', g, 'amount', 1.5)
       FROM generate_series($2::int, $3::int) g`,
    [tenantId, from, from + count - 1],
  );
}

test("a backfill of 50,000 events to S3: objects in order, no gap or overlap, the chain proven from the bucket", async () => {
  const world = await tenantWithMembers();
  const tenantId = world.tenant.id;
  const admin = client(api.url, world.admin.token);
  await bulkAppend(tenantId, EVENTS / 2, 1);
  const first = await signDigest(admin, tenantId);
  await bulkAppend(tenantId, EVENTS / 2, EVENTS / 2 + 1);
  const second = await signDigest(admin, tenantId);
  expect([first.to_sequence, second.to_sequence]).toEqual([EVENTS / 2, EVENTS]);

  expect((await admin.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
  const base = `/api/v1/tenants/${tenantId}/log-streams`;
  const created = await admin.post(base, {
    name: "Data lake",
    type: "s3",
    config: {
      bucket: BUCKET,
      region: s3.region,
      prefix: "cp/audit",
      endpoint: s3.endpoint,
      path_style: true,
      access_key_id: s3.credentials.accessKeyId,
      secret_access_key: s3.credentials.secretAccessKey,
    },
    start_from: "oldest",
  });
  expect(created.status, created.text).toBe(201);
  const streamId = created.json.id as string;
  expect(created.json.config).toMatchObject({ secret_access_key_set: true });
  expect(created.json.config.secret_access_key).toBeUndefined();

  // S3 throttles the first batch; the engine waits what it asked, then sends that range again.
  s3.failNext({ status: 503, code: "SlowDown", message: "Please reduce your request rate.", headers: { "retry-after": "1" } });
  const handle = await database();
  const started = Date.now();
  const stream = await until(
    async () => {
      await deliverDueStreams(handle, { limit: 10 });
      return (await admin.get(`${base}/${streamId}`)).json;
    },
    (s) => s.lag_events === 0,
    { timeoutMs: 150_000, intervalMs: 50, message: (s) => `lag still ${s?.lag_events}` },
  );
  const elapsed = Date.now() - started;
  const head = Number((await (await db()).auditChain.findUniqueOrThrow({ where: { chainId: tenantId } })).sequence);
  expect(head).toBeGreaterThan(EVENTS); // the stream's own log_stream.created, and the step-up, come after
  expect(stream).toMatchObject({ state: "active", cursor_sequence: head, lag_events: 0, last_error: null });

  const prefix = `cp/audit/${tenantId}/`;
  const keys = (await s3.keys(BUCKET, prefix)).filter((key) => !key.includes("/_test/"));
  const ranges = keys
    .map((key) => {
      const match = /^\d{4}\/\d\d\/\d\d\/(\d+)-(\d+)\.ndjson\.gz$/.exec(key.slice(prefix.length));
      expect(match, key).not.toBeNull();
      return { key, from: Number(match![1]), to: Number(match![2]) };
    })
    .sort((a, b) => a.from - b.from);
  expect(ranges[0]!.from).toBe(1);
  expect(ranges.at(-1)!.to).toBe(head);
  for (const [i, range] of ranges.entries()) {
    expect(range.to - range.from, range.key).toBeLessThan(1000);
    if (i > 0) expect(range.from, range.key).toBe(ranges[i - 1]!.to + 1);
  }
  // Each key PUT once, but the first (refused, then sent again to the same key).
  const putPaths = s3.puts.map((p) => decodeURIComponent(p.path.replace(`/${BUCKET}/`, "")));
  expect(s3.puts[0]).toMatchObject({ status: 503 });
  expect(putPaths[0]).toBe(putPaths[1]);
  expect(new Set(putPaths).size).toBe(keys.length);
  expect(s3.puts.slice(1).every((p) => p.status === 200)).toBe(true);
  const batches = (await admin.get(`${base}/${streamId}/batches?page_size=100`)).json.results as {
    from_sequence: number;
    status: string;
    response_status: number;
    error: string;
  }[];
  expect(batches.filter((b) => b.status === "failed")).toEqual([
    expect.objectContaining({ from_sequence: 1, response_status: 503, error: "SlowDown: Please reduce your request rate." }),
  ]);

  // The bucket as an auditor downloads it, every object whole and in its range's order.
  const digests = new Set<string>();
  const files: string[] = [];
  let sequence = 0;
  for (const { key, from, to } of ranges) {
    const object = await s3.get(BUCKET, key);
    const seqs = object.text
      .trimEnd()
      .split("\n")
      .map((line) => (JSON.parse(line) as { sequence: number }).sequence);
    expect(seqs, key).toEqual(Array.from({ length: to - from + 1 }, (_, i) => from + i));
    expect(object.metadata, key).toMatchObject({
      "from-sequence": String(from),
      "to-sequence": String(to),
      "event-count": String(seqs.length),
    });
    sequence = to;
    if (object.metadata.digest) digests.add(object.metadata.digest);
    const file = path.join(dir, key);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, object.body);
    files.push(file);
  }
  expect(sequence).toBe(head);
  expect([...digests]).toEqual([first.jws, second.jws]);
  writeFileSync(path.join(dir, "jwks.json"), JSON.stringify(await fetchJwks(admin)));
  writeFileSync(path.join(dir, "digests.txt"), [...digests].join("\n"));
  const verified = await verifyScript(files, path.join(dir, "jwks.json"), path.join(dir, "digests.txt"));
  expect(verified).toEqual({
    code: 0,
    out: expect.stringMatching(new RegExp(`^OK: tenant ${tenantId}, sequences 1-${EVENTS} complete and unaltered`)),
  });
  console.info(`s3 backfill: ${head} events in ${keys.length} objects, ${elapsed} ms (${Math.round((head / elapsed) * 1000)} events/s)`);
}, 240_000);

test("POST …/test writes a marked object under _test/ and answers what S3 said, a wrong secret included", async () => {
  const world = await tenantWithMembers();
  const admin = client(api.url, world.admin.token);
  expect((await admin.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
  const base = `/api/v1/tenants/${world.tenant.id}/log-streams`;
  const config = {
    bucket: BUCKET,
    region: s3.region,
    endpoint: s3.endpoint,
    path_style: true,
    access_key_id: s3.credentials.accessKeyId,
    secret_access_key: s3.credentials.secretAccessKey,
  };
  const created = await admin.post(base, { name: "Lake", type: "s3", config });
  expect(created.status, created.text).toBe(201);

  const tested = await admin.post(`${base}/${created.json.id}/test`);
  expect(tested.json).toMatchObject({ ok: true, response_status: 200, error: null });
  const keys = await s3.keys(BUCKET, `${world.tenant.id}/`);
  expect(keys).toEqual([expect.stringMatching(new RegExp(`^${world.tenant.id}/_test/.+\\.ndjson\\.gz$`))]);
  const object = await s3.get(BUCKET, keys[0]!);
  expect(JSON.parse(object.text)).toMatchObject({ event_type: "log_stream.test", sequence: 0 });
  expect(object.metadata).toMatchObject({ test: "true", "from-sequence": "0", "to-sequence": "0" });

  const wrong = "not-the-secret/but-must-not-leak-either";
  const patched = await admin.patch(`${base}/${created.json.id}`, { config: { secret_access_key: wrong } });
  expect(patched.status, patched.text).toBe(200);
  const refused = await admin.post(`${base}/${created.json.id}/test`);
  expect(refused.json).toMatchObject({ ok: false, response_status: 403, error: expect.stringMatching(/^SignatureDoesNotMatch: /) });
  expect(refused.text).not.toContain(wrong);
  const batches = await admin.get(`${base}/${created.json.id}/batches`);
  expect(batches.text).not.toContain(wrong);
  expect(batches.json.results.map((b: { test: boolean; status: string }) => [b.test, b.status])).toEqual([
    [true, "failed"],
    [true, "succeeded"],
  ]);
});
