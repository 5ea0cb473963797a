/**
 * With OUTBOUND_ALLOW_PRIVATE off (production's default): a webhook cannot be created for a
 * private or loopback target, and a target that resolves to one at delivery time is refused on
 * every attempt (`ssrf_refused`), before any connection.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { database } from "../../server/db/client.ts";
import { emitEvent } from "../../server/events/emit.ts";
import { deliverDueWebhooks } from "../../server/webhooks/sink.ts";
import { encryptSecret } from "../../server/secrets/encryption.ts";
import { env } from "../../server/env.ts";
import { codeOf, consoleAs } from "../support/console-caller.ts";

process.env.OUTBOUND_ALLOW_PRIVATE = "false";

const api = apiServer();
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

test.each([
  "http://127.0.0.1:8080/hook",
  "https://127.0.0.1/hook",
  "https://localhost/hook",
  "https://10.1.2.3/hook",
  "http://hooks.example.test/hook",
])("create refuses %s (400 naming url, and for operators the variable that would allow it)", async (url) => {
  const { tenant, admin } = await tenantWithMembers();
  const res = await client(api.url, admin.token).post(`/api/v1/tenants/${tenant.id}/webhooks`, { url, events: ["*"] });
  expect(res.status).toBe(400);
  expect(res.json.errors[0].path).toBe("url");
  expect(res.json.errors[0].message).toMatch(/refused on this server; operators: OUTBOUND_ALLOW_PRIVATE=true allows them/);
});

test("the console's webhook form learns whether this server allows private hosts (tenant admins only)", async () => {
  const { tenant, admin, viewer } = await tenantWithMembers();
  const caller = await consoleAs(admin.user.id);
  expect(await caller.webhooks.urlPolicy({ tenant_id: tenant.id })).toEqual({ private_hosts: false });
  env().OUTBOUND_ALLOW_PRIVATE = true;
  try {
    expect(await caller.webhooks.urlPolicy({ tenant_id: tenant.id })).toEqual({ private_hosts: true });
  } finally {
    env().OUTBOUND_ALLOW_PRIVATE = false;
  }
  expect(await codeOf((await consoleAs(viewer.user.id)).webhooks.urlPolicy({ tenant_id: tenant.id }))).toBe("FORBIDDEN");
});

test("a host resolving to a private address at delivery time is refused: ssrf_refused, nothing sent, retried later", async () => {
  const { tenant } = await tenantWithMembers();
  const port = new URL(receiver.url).port;
  // Stands for a public-looking name that resolves to loopback: inserted directly, as create refuses it.
  const webhook = await (
    await db()
  ).webhook.create({
    data: {
      tenantId: tenant.id,
      url: `https://localhost:${port}/hook`,
      events: ["*"],
      secretCiphertext: encryptSecret("ssrf-secret-0123456789"),
      secretHint: "6789",
    },
  });
  const { sql } = await database();
  await sql.transaction((tx) =>
    emitEvent(
      tx,
      { id: null, email: null, ip: null, userAgent: null },
      { type: "user.created", tenantId: tenant.id, details: { email: "new@example.com" } },
    ),
  );
  const summary = await deliverDueWebhooks(await database());
  expect(summary).toMatchObject({ claimed: 1, failed: 1, succeeded: 0 });
  const [delivery] = await (await db()).webhookDelivery.findMany({ where: { webhookId: webhook.id }, include: { attempts: true } });
  expect(delivery).toMatchObject({ status: "failed", attemptCount: 1, lastError: "ssrf_refused" });
  expect(delivery!.attempts[0]).toMatchObject({ error: "ssrf_refused", responseStatus: null });
  expect(delivery!.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
  expect(receiver.received).toHaveLength(0);
});
