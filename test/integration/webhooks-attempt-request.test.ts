/**
 * What the deliveries log shows a developer debugging a webhook: each attempt's request (URL,
 * headers with every signature cut to its first characters, never the secret), the payload sent,
 * and the response's headers (no cookies); kept on the 410 path too. Real receiver on 127.0.0.1.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { until } from "../support/until.ts";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { database } from "../../server/db/client.ts";
import { startWebhookDispatcher } from "../../server/webhooks/sink.ts";

process.env.WEBHOOK_RETRY_SCHEDULE = "1,2";

const SECRET = "attempt-request-secret-0123456789";

const api = apiServer();
let receiver: Receiver;
let stopDispatcher: () => Promise<void>;
beforeAll(async () => {
  stopDispatcher = await startWebhookDispatcher(await database());
});
afterAll(async () => {
  await stopDispatcher();
});
afterEach(async () => {
  await receiver?.close();
});

async function setup() {
  receiver = await startReceiver();
  const world = await tenantWithMembers();
  const admin = client(api.url, world.admin.token);
  const base = `/api/v1/tenants/${world.tenant.id}/webhooks`;
  const res = await admin.post(base, { url: `${receiver.url}/hook`, events: ["user.created"], secret: SECRET });
  expect(res.status).toBe(201);
  return { ...world, admin, base, webhookId: res.json.id as string };
}

test("an attempt shows the request sent with its signatures redacted, the payload, and the response headers without cookies", async () => {
  const { admin, base, webhookId, viewer } = await setup();
  receiver.respond = () => ({ status: 200, body: "thanks", headers: { "x-receiver": "yes", "set-cookie": "session=abc" } });
  expect((await admin.post(`${base}/${webhookId}/test`)).status).toBe(200);
  const [sent] = await receiver.waitFor(1);

  // Viewers read the same log (no secrets in it to keep from them).
  const reader = client(api.url, viewer.token);
  const page = await until(
    () => reader.get(`${base}/${webhookId}/deliveries`),
    (r) => r.json?.results?.[0]?.status === "succeeded",
  );
  expect(page.status).toBe(200);
  const delivery = page.json.results[0];
  expect(delivery.payload).toBe(sent!.body);
  const [attempt] = delivery.attempts;
  const hex = String(sent!.headers["x-webhook-signature"]);
  const standard = String(sent!.headers["webhook-signature"]);
  expect(attempt.request).toEqual({
    url: `${receiver.url}/hook`,
    headers: {
      "content-type": "application/json",
      "user-agent": "ControlPlane-Webhooks/1.0",
      "x-webhook-signature": `${hex.slice(0, 5)}…`,
      "x-webhook-id": delivery.event_id,
      "x-webhook-timestamp": sent!.headers["x-webhook-timestamp"],
      "idempotency-key": delivery.event_id,
      "webhook-id": delivery.event_id,
      "webhook-timestamp": sent!.headers["webhook-timestamp"],
      "webhook-signature": `${standard.slice(0, 8)}…`,
    },
  });
  expect(attempt.response_headers).toMatchObject({ "x-receiver": "yes", "content-type": "text/plain" });
  expect(attempt.response_headers).not.toHaveProperty("set-cookie");

  // The same delivery on its own (what the console polls after "Send test event").
  const one = await reader.get(`${base}/${webhookId}/deliveries/${delivery.id}`);
  expect(one.status).toBe(200);
  expect(one.json).toEqual(delivery);
  expect((await reader.get(`${base}/${webhookId}/deliveries/not-a-delivery`)).status).toBe(404);

  // Neither the signatures nor the secret are anywhere: not in the answer, not in the database.
  const stored = await (await db()).webhookAttempt.findMany({ where: { deliveryId: delivery.id } });
  for (const text of [page.text, JSON.stringify(stored)]) {
    expect(text).not.toContain(hex);
    expect(text).not.toContain(standard.slice(3));
    expect(text).not.toContain(SECRET);
  }
});

test("an attempt without a response keeps its request", async () => {
  const { admin, base, webhookId } = await setup();
  await receiver.close();
  expect((await admin.post(`${base}/${webhookId}/test`)).status).toBe(200);
  const page = await until(
    () => admin.get(`${base}/${webhookId}/deliveries`),
    (r) => r.json?.results?.[0]?.attempts?.length >= 1,
  );
  const [attempt] = page.json.results[0].attempts;
  expect(attempt.response_status).toBeNull();
  expect(attempt.response_headers).toBeNull();
  expect(attempt.request.url).toBe(`${receiver.url}/hook`);
  expect(attempt.request.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{5}…$/);
  expect(attempt.request.headers["x-webhook-signature"]).toMatch(/^[0-9a-f]{5}…$/);
});

test("the attempt that got 410 Gone (and disabled the webhook) keeps its request and response headers", async () => {
  const { admin, base, webhookId } = await setup();
  receiver.respond = () => ({ status: 410, body: "gone", headers: { "x-gone": "1" } });
  expect((await admin.post(`${base}/${webhookId}/test`)).status).toBe(200);
  const page = await until(
    () => admin.get(`${base}/${webhookId}/deliveries`),
    (r) => r.json?.results?.[0]?.status === "cancelled",
  );
  const [attempt] = page.json.results[0].attempts;
  expect(attempt.response_status).toBe(410);
  expect(attempt.response_headers).toMatchObject({ "x-gone": "1" });
  expect(attempt.request.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{5}…$/);
});
