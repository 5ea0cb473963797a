/**
 * The log-stream engine against a real Splunk HEC intake (test/support/log-receivers.ts, checked
 * against Splunk's own client): a backfill from the oldest event arrives whole and in order; a
 * batch waits for LOG_STREAM_BATCH_WAIT_MS unless it is full; a receiver that fails gets the very
 * same range again (Retry-After honoured), nothing skipped; 24 h of failures turn the stream
 * `failing` once (event + mail) and the next success `recovered`; `event_types` filters; a paused
 * stream is not sent; two instances racing send each batch once; a lease that lapses (an instance
 * died mid-batch) lets another resend the same range.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { mailServers } from "../support/mail-servers.ts";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";
import { startSplunkHec, type SplunkHec } from "../support/log-receivers.ts";
import { connectPostgres, database } from "../../server/db/client.ts";
import { deliverDueStreams } from "../../server/log-streams/engine.ts";
import { env } from "../../server/env.ts";

process.env.LOG_STREAM_BATCH_WAIT_MS = "0";

const servers = mailServers();
let hec: SplunkHec;
beforeAll(async () => {
  hec = await startSplunkHec({ token: "hec-token-for-the-engine-test" });
});
afterAll(() => hec.close());

async function setup(events: number, stream: Record<string, unknown> = {}) {
  const world = await tenantWithMembers();
  const admin = client(servers.api.url, world.admin.token);
  const base = `/api/v1/tenants/${world.tenant.id}`;
  const append = async (n: number, eventType = "invoice.paid") => {
    for (let from = 0; from < n; from += 500) {
      const count = Math.min(500, n - from);
      const events = Array.from({ length: count }, (_, i) => ({ event_type: eventType, actor: { id: `a-${from + i}` } }));
      const res = await admin.post(`${base}/audit/batch`, { events });
      expect(res.status, res.text.slice(0, 300)).toBe(201);
    }
  };
  await append(events);
  expect((await admin.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
  const created = await admin.post(`${base}/log-streams`, {
    name: "Splunk",
    type: "splunk_hec",
    config: { url: hec.url, token: "hec-token-for-the-engine-test", index: "audit" },
    start_from: "oldest",
    ...stream,
  });
  expect(created.status, created.text).toBe(201);
  const get = async () => (await admin.get(`${base}/log-streams/${created.json.id}`)).json;
  const audit = () => auditEvents().filter((e) => e.tenant_id === world.tenant.id);
  const received = () => audit().map((e) => e.sequence as number);
  return { ...world, admin_email: world.admin.user.email, admin, base, id: created.json.id as string, get, append, audit, received };
}

/** Runs the engine until nothing more is sent (at most `runs` times). */
async function drain(runs = 50) {
  const handle = await database();
  for (let i = 0; i < runs; i++) if ((await deliverDueStreams(handle, { limit: 50 })).sent === 0) return;
}

/** The audit events the intake holds (HEC events of our audit sourcetype), in arrival order. */
const auditEvents = () =>
  hec.events.filter((e) => e.event.sourcetype === "control_plane:audit").map((e) => e.event.event as Record<string, unknown>);

const makeDue = async (id: string) =>
  (await db()).$executeRaw`UPDATE log_streams SET next_attempt_at = now(), locked_until = NULL WHERE id = ${id}::uuid`;

test("a backfill from the oldest event arrives whole, in order, in batches of at most 1,000; lag reaches 0", async () => {
  const s = await setup(2500);
  expect((await s.get()).lag_events).toBeGreaterThan(2500);
  await drain();
  const head = Number((await (await db()).auditChain.findUniqueOrThrow({ where: { chainId: s.tenant.id } })).sequence);
  expect(s.received()).toEqual(Array.from({ length: head }, (_, i) => i + 1));
  const stream = await s.get();
  expect(stream).toMatchObject({ cursor_sequence: head, lag_events: 0, state: "active", last_error: null });
  const batches = (await s.admin.get(`${s.base}/log-streams/${s.id}/batches?page_size=100`)).json.results;
  expect(batches.every((b: { to_sequence: number; from_sequence: number }) => b.to_sequence - b.from_sequence < 1000)).toBe(true);
  expect(batches[0]).toMatchObject({ status: "succeeded", response_status: 200, to_sequence: head });
});

test("a batch waits for LOG_STREAM_BATCH_WAIT_MS unless 1,000 events are waiting, looked at again every LOG_STREAM_POLL_MS", async () => {
  const s = await setup(3);
  await drain();
  const settings = env() as { LOG_STREAM_BATCH_WAIT_MS: number; LOG_STREAM_POLL_MS: number };
  const poll = settings.LOG_STREAM_POLL_MS;
  settings.LOG_STREAM_BATCH_WAIT_MS = 60_000;
  settings.LOG_STREAM_POLL_MS = 200;
  try {
    await s.append(5);
    await drain();
    expect((await s.get()).lag_events).toBe(5);
    await makeDue(s.id);
    await drain();
    expect((await s.get()).lag_events).toBe(5);
    // Filled while it waited: it goes at the next poll, not once the oldest has waited 60 s.
    await s.append(1000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await drain();
    expect((await s.get()).lag_events).toBe(5);
  } finally {
    settings.LOG_STREAM_BATCH_WAIT_MS = 0;
    settings.LOG_STREAM_POLL_MS = poll;
    // Its 5 waiting events would otherwise go to the next test's receiver.
    await s.admin.patch(`${s.base}/log-streams/${s.id}`, { enabled: false });
  }
});

test("a failing receiver gets the same range again (Retry-After honoured); 24 h of failures: failing once, then recovered", async () => {
  const s = await setup(1500);
  hec.script.push({ status: 503, body: { text: "Server is busy", code: 9 }, headers: { "retry-after": "120" } });
  await drain(1);
  let row = await (await db()).logStream.findUniqueOrThrow({ where: { id: s.id } });
  expect(row.cursorSequence).toBe(0n);
  expect([row.pendingFrom, row.pendingTo]).toEqual([1n, 1000n]);
  const wait = (row.nextAttemptAt.getTime() - Date.now()) / 1000;
  expect(wait).toBeGreaterThan(110);
  expect(wait).toBeLessThanOrEqual(120);
  expect(s.received()).toEqual([]);

  // A day of failures: announced once.
  await (
    await db()
  ).$executeRaw`UPDATE log_streams SET failing_since = now() - interval '25 hours' WHERE id = ${s.id}::uuid`;
  for (let i = 0; i < 2; i++) {
    hec.script.push({ status: 500, body: "boom" });
    await makeDue(s.id);
    await drain(1);
  }
  expect(await (await db()).auditEvent.count({ where: { tenantId: s.tenant.id, eventType: "log_stream.failing" } })).toBe(1);
  expect((await s.get()).state).toBe("failing");
  const mail = await servers.smtp.waitFor(s.admin_email);
  expect(mail.subject).toContain("Log stream failing: Splunk");
  expect(mail.text).toContain("Nothing is lost");
  row = await (await db()).logStream.findUniqueOrThrow({ where: { id: s.id } });
  expect([row.pendingFrom, row.pendingTo, row.attemptCount]).toEqual([1n, 1000n, 3]);

  await makeDue(s.id);
  await drain();
  const head = Number((await (await db()).auditChain.findUniqueOrThrow({ where: { chainId: s.tenant.id } })).sequence);
  expect(s.received()).toEqual(Array.from({ length: head }, (_, i) => i + 1));
  expect(await s.get()).toMatchObject({ state: "active", lag_events: 0 });
  const kinds = s.audit().map((e) => e.event_type);
  expect(kinds).toContain("log_stream.failing");
  expect(kinds).toContain("log_stream.recovered");
  const batches = (await s.admin.get(`${s.base}/log-streams/${s.id}/batches?page_size=100`)).json.results;
  expect(
    batches
      .filter((b: { status: string }) => b.status === "failed")
      .map((b: { from_sequence: number; to_sequence: number; attempt: number }) => [b.from_sequence, b.to_sequence, b.attempt]),
  ).toEqual([
    [1, 1000, 3],
    [1, 1000, 2],
    [1, 1000, 1],
  ]);
});

test("event_types: only those kinds are sent, the cursor still passes the rest; a paused stream sends nothing", async () => {
  const s = await setup(0, { event_types: ["app.*"] });
  await s.append(20, "app.imported");
  await s.append(30);
  await drain();
  const kinds = s.audit().map((e) => e.event_type);
  expect(kinds).toEqual(Array(20).fill("app.imported"));
  expect((await s.get()).lag_events).toBe(0);

  expect((await s.admin.patch(`${s.base}/log-streams/${s.id}`, { enabled: false })).status).toBe(200);
  await s.append(10, "app.imported");
  await drain();
  expect(s.audit()).toHaveLength(20);
  expect(await s.get()).toMatchObject({ state: "paused", lag_events: 11 });
});

test("two instances racing send each batch once; a lapsed lease (an instance died mid-batch) resends the same range", async () => {
  const s = await setup(5000);
  const second = connectPostgres(process.env.DATABASE_URL!, 4);
  try {
    const first = await database();
    const run = async (handle: typeof first) => {
      for (let i = 0; i < 40; i++) if ((await deliverDueStreams(handle, { limit: 50 })).sent === 0) return;
    };
    await Promise.all([run(first), run(second)]);
    await drain();
    const head = Number((await (await db()).auditChain.findUniqueOrThrow({ where: { chainId: s.tenant.id } })).sequence);
    expect(s.received()).toEqual(Array.from({ length: head }, (_, i) => i + 1));
  } finally {
    await second.close();
  }

  // An instance claimed the next batch, recorded its range, and died: its lease lapses, another resends exactly it.
  await s.append(1200);
  await (
    await db()
  ).$executeRaw`UPDATE log_streams SET pending_from = cursor_sequence + 1, pending_to = cursor_sequence + 700,
      locked_until = now() - interval '1 second' WHERE id = ${s.id}::uuid`;
  const before = s.received().length;
  await drain(1);
  const resent = s.received().slice(before);
  expect(resent).toHaveLength(700);
  await drain();
  expect((await s.get()).lag_events).toBe(0);
});
