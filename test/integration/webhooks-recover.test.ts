/**
 * Recover: an endpoint down for a while (it answers 500), its deliveries end exhausted (or wait
 * to retry), then it is up again; recovering the window re-sends each once, in the original order,
 * as new deliveries of the same payload and event id, queued by a background job whose progress
 * GET follows. A delivery is recovered once; the 10,000 cap truncates and says where to go on;
 * another tenant's webhook is 404, a viewer may follow but not start, bad windows are 400.
 * No dispatcher runs here: the test sends what is due itself, one at a time, so order is exact.
 */
import { afterEach, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { until } from "../support/until.ts";
import { database } from "../../server/db/client.ts";
import { emitEvent } from "../support/events.ts";
import { deliverDueWebhooks } from "../../server/webhooks/sink.ts";
import { runRecoverJobs } from "../../server/webhooks/recover.ts";

process.env.WEBHOOK_RETRY_SCHEDULE = "1";

const api = apiServer();
let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

async function setup() {
  receiver = await startReceiver();
  const world = await tenantWithMembers();
  const admin = client(api.url, world.admin.token);
  const base = `/api/v1/tenants/${world.tenant.id}/webhooks`;
  const res = await admin.post(base, { url: `${receiver.url}/hook`, events: ["order.*"] });
  expect(res.status).toBe(201);
  const hook = `${base}/${res.json.id}`;
  return { ...world, admin, viewerClient: client(api.url, world.viewer.token), base, hook, webhookId: res.json.id as string };
}

async function emit(tenantId: string, n: number) {
  const sql = (await database()).sql;
  return sql.transaction((tx) =>
    emitEvent(tx, { id: null, email: null, ip: null, userAgent: null }, { type: "order.placed", tenantId, details: { n } }),
  );
}

/** Sends what is due, one delivery at a time, until `done` holds. */
async function deliverUntil(done: () => Promise<boolean>) {
  const db_ = await database();
  await until(
    async () => {
      await deliverDueWebhooks(db_, { concurrency: 1, batchSize: 500 });
      return done();
    },
    (ok) => ok,
    { timeoutMs: 15_000, intervalMs: 100, message: () => "deliveries did not settle" },
  );
}

/** The request's instance starts the job at once; runRecoverJobs is every instance's net (the ticker's job). */
async function queuedBy(jobId: string, n: number) {
  await runRecoverJobs(await database());
  await until(
    async () => (await db()).webhookDelivery.count({ where: { recoverJobId: jobId } }),
    (count) => count === n,
    { timeoutMs: 10_000, intervalMs: 50, message: (count) => `expected ${n} queued, got ${count}` },
  );
}

const statusesOf = async (webhookId: string) =>
  (await (await db()).webhookDelivery.findMany({ where: { webhookId, recoverJobId: null }, orderBy: { createdAt: "asc" } })).map(
    (d) => d.status,
  );

describe("recovering an endpoint that was down", () => {
  test("exhausted deliveries are re-sent once each, in order, with the same event id; the job reports done", async () => {
    const { admin, hook, tenant, webhookId } = await setup();
    receiver!.respond = () => ({ status: 500, body: "down" });
    const since = new Date(Date.now() - 1000).toISOString();
    const ids: string[] = [];
    for (let n = 0; n < 6; n++) ids.push((await emit(tenant.id, n)).id);
    await deliverUntil(async () => (await statusesOf(webhookId)).every((s) => s === "exhausted"));
    expect(receiver!.received).toHaveLength(12);

    receiver!.respond = () => ({ status: 200 });
    receiver!.received.length = 0;
    const res = await admin.post(`${hook}/recover`, { since });
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ status: "queued", queued: 6, sent: 0, truncated: false, next_since: null, since, until: null });
    await queuedBy(res.json.id, 6);
    await deliverUntil(async () => receiver!.received.length >= 6);

    expect(receiver!.received.map((r) => r.headers["webhook-id"])).toEqual(ids);
    expect(receiver!.received.map((r) => JSON.parse(r.body).data.details.n)).toEqual([0, 1, 2, 3, 4, 5]);
    const job = await admin.get(`${hook}/recover/${res.json.id}`);
    expect(job.json).toMatchObject({ id: res.json.id, status: "done", queued: 6, sent: 6, finished_at: expect.any(String) });

    // Recovered once: the same window again queues nothing, and nothing more arrives.
    const again = await admin.post(`${hook}/recover`, { since });
    expect(again.json.queued).toBe(0);
    await runRecoverJobs(await database());
    await deliverDueWebhooks(await database());
    expect(receiver!.received).toHaveLength(6);
  });

  test("a delivery still waiting to retry is cancelled and re-sent once, not twice; until bounds the window", async () => {
    process.env.WEBHOOK_RETRY_SCHEDULE = "30";
    try {
      const { admin, hook, tenant, webhookId } = await setup();
      receiver!.respond = () => ({ status: 503 });
      const since = new Date(Date.now() - 1000).toISOString();
      const first = await emit(tenant.id, 1);
      await deliverUntil(async () => (await statusesOf(webhookId)).every((s) => s === "failed"));
      const untilAt = new Date(Date.now() + 5).toISOString();
      await new Promise((r) => setTimeout(r, 20));
      await emit(tenant.id, 2);
      await deliverUntil(
        async () => (await statusesOf(webhookId)).length === 2 && (await statusesOf(webhookId)).every((s) => s === "failed"),
      );

      receiver!.respond = () => ({ status: 204 });
      receiver!.received.length = 0;
      const res = await admin.post(`${hook}/recover`, { since, until: untilAt });
      expect(res.json.queued).toBe(1);
      await queuedBy(res.json.id, 1);
      await deliverUntil(async () => receiver!.received.length >= 1);
      expect(receiver!.received.map((r) => r.headers["webhook-id"])).toEqual([first.id]);
      expect(await statusesOf(webhookId)).toEqual(["cancelled", "failed"]);
    } finally {
      process.env.WEBHOOK_RETRY_SCHEDULE = "1";
    }
  });
});

describe("the background job", () => {
  test("a job left queued (its instance stopped first) is queued once by concurrent runs of the job (each on its own connection, as instances are)", async () => {
    const { tenant, webhookId } = await setup();
    const prisma = await db();
    await prisma.$executeRawUnsafe(
      `INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_id, event_type, payload, status, attempt_count, created_at)
       SELECT $1::uuid, $2::uuid, gen_random_uuid(), 'order.placed', '{}', 'exhausted', 2, now() - g * interval '1 second'
       FROM generate_series(1, 50) g`,
      tenant.id,
      webhookId,
    );
    // As the request leaves it: the job queued, its deliveries picked (recovered_by), no copies yet.
    const job = await prisma.webhookRecoverJob.create({
      data: { tenantId: tenant.id, webhookId, since: new Date(Date.now() - 3600_000), queued: 50 },
    });
    await prisma.webhookDelivery.updateMany({ where: { webhookId }, data: { recoveredBy: job.id } });

    const db_ = await database();
    const runs = await Promise.all([runRecoverJobs(db_), runRecoverJobs(db_), runRecoverJobs(db_)]);
    expect(runs.reduce((n, r) => n + r.recover_jobs_started, 0)).toBe(1);
    expect(await prisma.webhookDelivery.count({ where: { recoverJobId: job.id } })).toBe(50);
    expect((await prisma.webhookRecoverJob.findUniqueOrThrow({ where: { id: job.id } })).status).toBe("running");
  });
});

describe("the 10,000 cap", () => {
  test("10,001 ended deliveries: the oldest 10,000 are queued, truncated, next_since names the first left out", async () => {
    const { admin, hook, tenant, webhookId } = await setup();
    const prisma = await db();
    await prisma.$executeRawUnsafe(
      `INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_id, event_type, payload, status, attempt_count, created_at)
       SELECT $1::uuid, $2::uuid, gen_random_uuid(), 'order.placed', '{}', 'exhausted', 8, timestamptz '2026-01-01T00:00:00Z' + g * interval '1 second'
       FROM generate_series(1, 10001) g`,
      tenant.id,
      webhookId,
    );
    const res = await admin.post(`${hook}/recover`, { since: "2025-12-31T00:00:00Z" });
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ queued: 10_000, truncated: true, next_since: "2026-01-01T02:46:41.000Z" });
    await queuedBy(res.json.id, 10_000);
    const rest = await admin.post(`${hook}/recover`, { since: res.json.next_since });
    expect(rest.json).toMatchObject({ queued: 1, truncated: false });
  });
});

describe("who may recover, and what", () => {
  test("another tenant's webhook and job are 404; a viewer follows but may not start; a disabled webhook is 409", async () => {
    const a = await setup();
    const b = await setup();
    const since = "2026-01-01T00:00:00Z";
    const job = await a.admin.post(`${a.hook}/recover`, { since });
    expect(job.status).toBe(202);
    expect((await b.admin.post(`${a.hook.replace(a.tenant.id, b.tenant.id)}/recover`, { since })).status).toBe(404);
    expect((await b.admin.post(`${a.hook}/recover`, { since })).status).toBe(404);
    expect((await b.admin.get(`${b.hook}/recover/${job.json.id}`)).status).toBe(404);
    expect((await a.admin.get(`${a.hook}/recover/not-a-uuid`)).status).toBe(404);
    expect((await a.viewerClient.post(`${a.hook}/recover`, { since })).status).toBe(403);
    expect((await a.viewerClient.get(`${a.hook}/recover/${job.json.id}`)).status).toBe(200);
    await a.admin.patch(a.hook, { enabled: false });
    const disabled = await a.admin.post(`${a.hook}/recover`, { since });
    expect(disabled.status).toBe(409);
  });

  test.each([
    [{}, "since"],
    [{ since: "yesterday" }, "since"],
    [{ since: "2026-01-02T00:00:00Z", until: "2026-01-01T00:00:00Z" }, "until"],
    [{ since: "2026-01-01T00:00:00Z", until: 5 }, "until"],
    [{ since: "2026-01-01T00:00:00Z", colour: "red" }, ""],
  ])("400 naming the field: %j → %s", async (body, field) => {
    const { admin, hook } = await setup();
    const res = await admin.post(`${hook}/recover`, body);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_request");
    if (field) expect(res.json.errors.map((e: { path: string }) => e.path)).toContain(field);
  });
});
