/**
 * At-least-once across crashes, and exactly-once across instances in the normal case: delivering
 * processes (children running the engine) against one database and one local receiver.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { db } from "../support/fixtures.ts";
import { startWorker, webhookTo } from "../support/delivery-workers.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { database } from "../../server/db/client.ts";
import { emitEvent } from "../../server/events/emit.ts";

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

/** A tenant with one webhook to the receiver (at `path`) and `count` events recorded through emitEvent. */
async function backlog(path: string, count: number) {
  const { tenant, webhook } = await webhookTo(`${receiver.url}${path}`);
  const { sql } = await database();
  const ids = new Set<string>();
  for (let i = 0; i < count; i += 50) {
    await sql.transaction(async (tx) => {
      for (let j = i; j < Math.min(count, i + 50); j++) {
        const event = await emitEvent(
          tx,
          { id: null, email: null, ip: null, userAgent: null },
          { type: "user.updated", tenantId: tenant.id, details: { n: j, changes: {} } },
        );
        ids.add(event.id);
      }
    });
  }
  return { tenant, webhook, ids };
}

const idsAt = (path: string) => receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body).id as string);

test("kill the delivering process mid-batch, restart: every event is delivered at least once", { timeout: 90_000 }, async () => {
  const { webhook, ids } = await backlog("/durable", 300);
  receiver.respond = () => ({ status: 200, delayMs: 100 });
  const first = startWorker(["--lease-ms", "3000"]);
  await receiver.waitFor(60, { timeoutMs: 30_000, filter: (r) => r.path === "/durable" });
  first.child.kill("SIGKILL");
  await first.done;
  const beforeRestart = new Set(idsAt("/durable")).size;
  expect(beforeRestart).toBeLessThan(ids.size);

  const second = startWorker(["--lease-ms", "3000"]);
  const { code, lines } = await second.done;
  expect(code).toBe(0);
  expect(JSON.parse(lines.at(-1)!).succeeded).toBeGreaterThan(0);

  const received = idsAt("/durable");
  expect(new Set(received)).toEqual(ids);
  expect(received.length).toBeGreaterThanOrEqual(ids.size);
  const statuses = await (await db()).webhookDelivery.groupBy({ by: ["status"], where: { webhookId: webhook.id }, _count: true });
  expect(statuses).toEqual([{ status: "succeeded", _count: ids.size }]);
});

test("two instances working the same 1,000 due deliveries: each is delivered exactly once", { timeout: 120_000 }, async () => {
  const { ids } = await backlog("/twice", 1000);
  receiver.respond = () => ({ status: 200, delayMs: 2 });
  const startAt = String(Date.now() + 4000);
  const a = startWorker(["--start-at", startAt]);
  const b = startWorker(["--start-at", startAt]);
  const [ra, rb] = await Promise.all([a.done, b.done]);
  expect([ra.code, rb.code]).toEqual([0, 0]);
  const sa = JSON.parse(ra.lines.at(-1)!);
  const sb = JSON.parse(rb.lines.at(-1)!);
  expect(sa.succeeded + sb.succeeded).toBe(1000);
  // Both took part (they started together), and no event arrived twice.
  expect(sa.succeeded).toBeGreaterThan(0);
  expect(sb.succeeded).toBeGreaterThan(0);
  const received = idsAt("/twice");
  expect(received).toHaveLength(1000);
  expect(new Set(received)).toEqual(ids);
});
