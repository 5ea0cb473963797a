/**
 * The webhook outbox runs inside every event's transaction because the start-up wiring subscribes
 * it (server/app/features.ts), not because server/events knows it: here through the wiring the
 * server and the test set-up share, and through the CLI, a composition root of its own.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, tenantWithMembers } from "../support/fixtures.ts";
import { database } from "../../server/db/client.ts";
import { actorOf, emitEvent } from "../../server/events/emit.ts";
import { SYSTEM_PRINCIPAL, SYSTEM_REQUEST } from "../../server/auth/principal.ts";

const run = promisify(execFile);

const api = apiServer();

async function tenantWithWebhook() {
  const world = await tenantWithMembers();
  const res = await client(api.url, world.admin.token).post(`/api/v1/tenants/${world.tenant.id}/webhooks`, {
    url: "http://127.0.0.1:9/hook",
    events: ["*"],
  });
  expect(res.status, res.text).toBe(201);
  return world;
}

async function deliveries(tenantId: string) {
  const { sql } = await database();
  return sql.query<{ event_id: string; event_type: string }>(
    `SELECT event_id, event_type FROM webhook_deliveries WHERE tenant_id = $1::uuid AND event_type <> 'webhook.created' ORDER BY created_at`,
    [tenantId],
  );
}

test("an event commits with its webhook delivery, and a rolled-back one leaves neither", async () => {
  const { tenant } = await tenantWithWebhook();
  const { sql } = await database();
  const actor = actorOf(SYSTEM_PRINCIPAL, SYSTEM_REQUEST);
  const event = await sql.transaction((tx) =>
    emitEvent(tx, actor, { type: "user.updated", tenantId: tenant.id, target: { type: "user", id: "u-1" }, details: { changes: {} } }),
  );
  expect(await deliveries(tenant.id)).toEqual([{ event_id: event.id, event_type: "user.updated" }]);

  await expect(
    sql.transaction(async (tx) => {
      await emitEvent(tx, actor, {
        type: "user.removed",
        tenantId: tenant.id,
        target: { type: "user", id: "u-1" },
        details: { email: "u-1@example.com", role: "viewer" },
      });
      throw new Error("roll back");
    }),
  ).rejects.toThrow("roll back");
  expect(await deliveries(tenant.id)).toHaveLength(1);
});

test("events the CLI emits reach the outbox too", async () => {
  const { tenant } = await tenantWithWebhook();
  await run(
    "node_modules/.bin/tsx",
    [
      "--import",
      "./scripts/server-only.mjs",
      "scripts/cli.ts",
      "member",
      "add",
      "--tenant",
      tenant.id,
      "--email",
      "cli-subscribed@example.com",
      "--role",
      "viewer",
    ],
    {
      env: { ...process.env, LOG_LEVEL: "silent" },
    },
  );
  expect((await deliveries(tenant.id)).map((d) => d.event_type)).toEqual(["user.created"]);
}, 60_000);
