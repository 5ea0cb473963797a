/**
 * Delivery to a real receiver on 127.0.0.1, woken by the commit (LISTEN/NOTIFY), with the retry
 * schedule shortened to 1 s, 2 s: signatures (both kinds, recomputed here; rotation overlap),
 * retries at the scheduled times, Retry-After, the send timeout (shortened to 1 s), 410, exhaustion, the 5-day rule,
 * and a disabled webhook getting nothing.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { until } from "../support/until.ts";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";
import { startReceiver, type Receiver, type Received } from "../support/webhook-receiver.ts";
import { database, type Database } from "../../server/db/client.ts";
import { emitEvent } from "../support/events.ts";
import { startWebhookDispatcher } from "../../server/webhooks/sink.ts";

process.env.WEBHOOK_RETRY_SCHEDULE = "1,2";
// The send timeout shortened as the schedule is (5 s by default): the stall test waits 1 s, not 5.
process.env.WEBHOOK_TIMEOUT_SECONDS = "1";

const api = apiServer();
let receiver: Receiver;
let stopDispatcher: () => Promise<void>;
let database_: Database;
beforeAll(async () => {
  database_ = await database();
  stopDispatcher = await startWebhookDispatcher(database_);
});
afterAll(async () => {
  await stopDispatcher();
});
afterEach(async () => {
  await receiver?.close();
});

async function setup(events: string[] = ["user.created"], secret?: string) {
  receiver = await startReceiver();
  const world = await tenantWithMembers();
  const admin = client(api.url, world.admin.token);
  const base = `/api/v1/tenants/${world.tenant.id}/webhooks`;
  const res = await admin.post(base, { url: `${receiver.url}/hook`, events, ...(secret ? { secret } : {}) });
  expect(res.status).toBe(201);
  return { ...world, admin, base, webhookId: res.json.id as string, secret: res.json.secret as string };
}

/** Records an event the way every change does: emitEvent inside a transaction. */
async function emit(tenantId: string, type = "user.created") {
  return database_.sql.transaction((tx) =>
    emitEvent(
      tx,
      { id: null, email: "someone@example.com", ip: null, userAgent: null },
      { type, tenantId, target: { type: "user", id: "u-1" }, details: { n: 1 } },
    ),
  );
}

function verifyHex(secret: string, r: { body: string; headers: Received["headers"] }) {
  const expected = Buffer.from(createHmac("sha256", secret).update(r.body).digest("hex"));
  const given = Buffer.from(String(r.headers["x-webhook-signature"]));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Standard Webhooks verification, as its libraries do it: the whsec_ secret's base64 part is the key. */
function verifyStandard(secret: string, r: { body: string; headers: Received["headers"] }) {
  const key = secret.startsWith("whsec_") ? Buffer.from(secret.slice(6), "base64") : Buffer.from(secret);
  const signed = `${r.headers["webhook-id"]}.${r.headers["webhook-timestamp"]}.${r.body}`;
  const expected = createHmac("sha256", key).update(signed).digest("base64");
  return String(r.headers["webhook-signature"])
    .split(" ")
    .some((part) => {
      const [version, signature] = part.split(",");
      return (
        version === "v1" &&
        signature !== undefined &&
        signature.length === expected.length &&
        timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
      );
    });
}

const flipOneByte = (body: string) => body.slice(0, 10) + String.fromCharCode(body.charCodeAt(10) ^ 1) + body.slice(11);

async function deliveriesOf(webhookId: string) {
  return (await db()).webhookDelivery.findMany({
    where: { webhookId },
    include: { attempts: { orderBy: { attempt: "asc" } } },
    orderBy: { createdAt: "asc" },
  });
}

describe("payload, headers and signatures", () => {
  test("first attempt right after commit; the receiver recomputes both signatures; a flipped byte fails both", async () => {
    const { tenant, secret } = await setup();
    const committed = Date.now();
    const event = await emit(tenant.id);
    const [r] = await receiver.waitFor(1, { timeoutMs: 2000 });
    expect(r!.at - committed).toBeLessThan(1000);
    expect(JSON.parse(r!.body)).toEqual({
      id: event.id,
      type: "user.created",
      tenant_id: tenant.id,
      created_at: event.timestamp.toISOString(),
      data: {
        actor: { id: null, email: "someone@example.com" },
        target: { type: "user", id: "u-1" },
        details: { n: 1 },
        // Recorded by the tests' seeding helper, as an application's append (test/support/events.ts).
        source: { type: "api", token_id: null, user_id: "test-seed" },
      },
    });
    expect(r!.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": "ControlPlane-Webhooks/1.0",
      "x-webhook-id": event.id,
      "idempotency-key": event.id,
      "webhook-id": event.id,
      "x-webhook-signature": expect.stringMatching(/^[0-9a-f]{64}$/),
      "webhook-signature": expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
    });
    expect(r!.headers["webhook-timestamp"]).toBe(r!.headers["x-webhook-timestamp"]);
    expect(Math.abs(Number(r!.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(5);
    expect(verifyHex(secret, r!)).toBe(true);
    expect(verifyStandard(secret, r!)).toBe(true);
    const tampered = { ...r!, body: flipOneByte(r!.body) };
    expect(verifyHex(secret, tampered)).toBe(false);
    expect(verifyStandard(secret, tampered)).toBe(false);
    expect(verifyHex(`${secret}x`, r!)).toBe(false);
  });

  test("a secret of one's own (not whsec_) signs Standard Webhooks with its raw bytes", async () => {
    const { tenant } = await setup(["user.created"], "a-secret-i-chose-myself");
    await emit(tenant.id);
    const [r] = await receiver.waitFor(1);
    expect(verifyHex("a-secret-i-chose-myself", r!)).toBe(true);
    expect(verifyStandard("a-secret-i-chose-myself", r!)).toBe(true);
  });

  test("after rotate-secret both secrets sign during the overlap; X-Webhook-Signature uses the new one", async () => {
    const { tenant, secret: oldSecret, admin, base, webhookId } = await setup();
    await admin.post("/api/v1/auth/step-up", { password: "admin-password" });
    const rotated = await admin.post(`${base}/${webhookId}/rotate-secret`, {});
    const newSecret: string = rotated.json.secret;
    await emit(tenant.id);
    const [r] = await receiver.waitFor(1);
    expect(String(r!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifyStandard(newSecret, r!)).toBe(true);
    expect(verifyStandard(oldSecret, r!)).toBe(true);
    expect(verifyHex(newSecret, r!)).toBe(true);

    // Once the overlap is over, only the new secret signs.
    await (await db()).webhook.update({ where: { id: webhookId }, data: { previousSecretExpiresAt: new Date(Date.now() - 1000) } });
    await emit(tenant.id);
    const [, later] = await receiver.waitFor(2);
    expect(String(later!.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verifyStandard(newSecret, later!)).toBe(true);
    expect(verifyStandard(oldSecret, later!)).toBe(false);
  });
});

describe("retries", () => {
  test("500, 500, 200: delivered on attempt 3 at the scheduled times (1 s, then 2 s), identical bytes each time", async () => {
    const { tenant, webhookId } = await setup();
    const answers = [500, 500, 200];
    receiver.respond = () => ({ status: answers.shift() ?? 200, body: "nope" });
    await emit(tenant.id);
    const got = await receiver.waitFor(3, { timeoutMs: 8000 });
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    expect(new Set(got.map((r) => r.headers["idempotency-key"])).size).toBe(1);
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(900);
    expect(got[1]!.at - got[0]!.at).toBeLessThan(2000);
    expect(got[2]!.at - got[1]!.at).toBeGreaterThanOrEqual(1900);
    expect(got[2]!.at - got[1]!.at).toBeLessThan(3000);
    const [delivery] = await until(
      () => deliveriesOf(webhookId),
      (d) => d[0]?.status === "succeeded",
    );
    expect(delivery).toMatchObject({ status: "succeeded", attemptCount: 3, nextAttemptAt: null, lastResponseStatus: 200 });
    expect(delivery!.attempts.map((a) => [a.attempt, a.responseStatus, a.error])).toEqual([
      [1, 500, "HTTP 500"],
      [2, 500, "HTTP 500"],
      [3, 200, null],
    ]);
    expect(delivery!.attempts[0]!.responseBody).toBe("nope");
    expect(delivery!.attempts[0]!.nextAttemptAt!.getTime() - delivery!.attempts[0]!.startedAt.getTime()).toBeGreaterThanOrEqual(900);
  });

  test("Retry-After is honoured over the schedule; the response body snippet is at most 1 KiB", async () => {
    const { tenant, webhookId } = await setup();
    const answers = [{ status: 503, headers: { "retry-after": "3" }, body: "x".repeat(5000) }, { status: 200 }];
    receiver.respond = () => answers.shift() ?? { status: 200 };
    await emit(tenant.id);
    const got = await receiver.waitFor(2, { timeoutMs: 8000 });
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(2900);
    const [delivery] = await until(
      () => deliveriesOf(webhookId),
      (d) => d[0]?.status === "succeeded",
    );
    expect(delivery!.attempts[0]!.responseBody).toHaveLength(1024);
  });

  test("a 2 s stall counts as a failure (timeout after WEBHOOK_TIMEOUT_SECONDS, 1 s here), then the retry succeeds", async () => {
    const { tenant, webhookId } = await setup();
    let first = true;
    receiver.respond = () => (first ? ((first = false), { status: 200, delayMs: 2000 }) : { status: 200 });
    await emit(tenant.id);
    const [delivery] = await until(
      () => deliveriesOf(webhookId),
      (d) => d[0]?.status === "succeeded",
      { timeoutMs: 15_000 },
    );
    expect(delivery!.attempts[0]).toMatchObject({ attempt: 1, error: "timeout", responseStatus: null });
    expect(delivery!.attempts[0]!.durationMs).toBeGreaterThanOrEqual(950);
    expect(delivery!.attempts[0]!.durationMs).toBeLessThan(2000);
    expect(delivery!.attempts[1]).toMatchObject({ attempt: 2, responseStatus: 200, error: null });
  });

  test("exhausted after the last attempt of the schedule (1 + 2 retries), nothing more", async () => {
    const { tenant, webhookId, admin, base } = await setup();
    receiver.respond = () => ({ status: 500 });
    await emit(tenant.id);
    await receiver.waitFor(3, { timeoutMs: 8000 });
    const [delivery] = await until(
      () => deliveriesOf(webhookId),
      (d) => d[0]?.status === "exhausted",
    );
    expect(delivery).toMatchObject({ status: "exhausted", attemptCount: 3, nextAttemptAt: null });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(receiver.received).toHaveLength(3);
    const shown = await admin.get(`${base}/${webhookId}`);
    expect(shown.json.last_delivery).toMatchObject({ status: "exhausted", response_status: 500 });
  });
});

describe("disabling", () => {
  test("410 disables the webhook at once, with a reason and one webhook.disabled event", async () => {
    const { tenant, webhookId, admin, base } = await setup();
    receiver.respond = () => ({ status: 410 });
    await emit(tenant.id);
    await receiver.waitFor(1);
    const shown = await until(
      () => admin.get(`${base}/${webhookId}`),
      (r) => r.json.enabled === false,
    );
    expect(shown.json).toMatchObject({ enabled: false, disabled_reason: expect.stringContaining("410") });
    const events = await (await db()).auditEvent.findMany({ where: { tenantId: tenant.id, eventType: "webhook.disabled" } });
    expect(events).toEqual([
      expect.objectContaining({
        targetId: webhookId,
        actorId: null,
        details: expect.objectContaining({ reason: expect.stringContaining("410") }),
      }),
    ]);
    const [delivery] = await deliveriesOf(webhookId);
    expect(delivery).toMatchObject({ status: "cancelled", lastResponseStatus: 410 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received).toHaveLength(1);
  });

  test("failing continuously for 5 days disables it with a reason", async () => {
    const { tenant, webhookId, admin, base } = await setup();
    receiver.respond = () => ({ status: 500 });
    await (await db()).webhook.update({ where: { id: webhookId }, data: { failingSince: new Date(Date.now() - 5 * 86_400_000 - 60_000) } });
    await emit(tenant.id);
    const shown = await until(
      () => admin.get(`${base}/${webhookId}`),
      (r) => r.json.enabled === false,
    );
    expect(shown.json.disabled_reason).toMatch(/5 days/);
    expect(await (await db()).auditEvent.count({ where: { tenantId: tenant.id, eventType: "webhook.disabled" } })).toBe(1);
  });

  test("a success ends the failure streak", async () => {
    const { tenant, webhookId } = await setup();
    await (await db()).webhook.update({ where: { id: webhookId }, data: { failingSince: new Date(Date.now() - 86_400_000) } });
    await emit(tenant.id);
    await receiver.waitFor(1);
    const row = await until(
      () => db().then((p) => p.webhook.findUniqueOrThrow({ where: { id: webhookId } })),
      (w) => w.failingSince === null,
    );
    expect(row.failingSince).toBeNull();
  });

  test("a disabled webhook gets nothing; re-enabled, it gets new events", async () => {
    const { tenant, webhookId, admin, base } = await setup();
    await admin.patch(`${base}/${webhookId}`, { enabled: false });
    const missed = await emit(tenant.id);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.received).toHaveLength(0);
    expect(await deliveriesOf(webhookId)).toHaveLength(0);
    await admin.patch(`${base}/${webhookId}`, { enabled: true });
    const fresh = await emit(tenant.id);
    const [r] = await receiver.waitFor(1);
    expect(JSON.parse(r!.body).id).toBe(fresh.id);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.map((x) => JSON.parse(x.body).id)).not.toContain(missed.id);
  });

  test("the test event and a manual retry are sent right away", async () => {
    const { webhookId, admin, base } = await setup();
    receiver.respond = () => ({ status: 500 });
    const sent = await admin.post(`${base}/${webhookId}/test`);
    await receiver.waitFor(1);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
      type: "webhook.test",
      data: { target: { type: "webhook", id: webhookId } },
    });
    receiver.respond = () => ({ status: 200 });
    await admin.post(`${base}/${webhookId}/deliveries/${sent.json.id}/retry`);
    await receiver.waitFor(2, { timeoutMs: 900 });
    const log = await until(
      () => admin.get(`${base}/${webhookId}/deliveries`),
      (r) => r.json.results[0]?.status === "succeeded",
    );
    expect(log.json.results[0]).toMatchObject({
      status: "succeeded",
      attempt_count: 2,
      attempts: [{ response_status: 500 }, { response_status: 200 }],
    });
  });
});
