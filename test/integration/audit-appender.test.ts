/** Group commit of appended events: concurrent appends share transactions, in order, and fail alone. */
import { randomUUID } from "node:crypto";
import { expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, tenantWithMembers } from "../support/fixtures.ts";
import { database } from "../../server/db/client.ts";
import { appendManyToLog, appendToLog } from "../../server/audit/appender.ts";
import { TEST_APPENDER } from "../support/events.ts";

const api = apiServer();

/** How many transactions wrote the tenant's `order.placed` events (each row's xmin is its writer's). */
async function transactionsWriting(tenantId: string): Promise<number> {
  const { sql } = await database();
  const [row] = await sql.query<{ n: number }>(
    "SELECT count(DISTINCT xmin::text)::int AS n FROM audit_events WHERE tenant_id = $1::uuid AND event_type = 'order.placed'",
    [tenantId],
  );
  return row!.n;
}

const actor = { id: "app-user", email: "app@example.com", ip: "198.51.100.4", userAgent: "batch-test" };

test("concurrent appends to one tenant go in together, in the order they arrived, as one intact chain", async () => {
  const { tenant, viewer } = await tenantWithMembers();
  const db = await database();
  const stored = await Promise.all(
    Array.from({ length: 120 }, (_, i) =>
      appendToLog(db, tenant.id, {
        actor,
        appendedBy: TEST_APPENDER,
        event: { type: "order.placed", tenantId: tenant.id, details: { i } },
      }),
    ),
  );

  // tenantWithMembers wrote its own events first; the appends follow in call order, no gaps.
  const first = stored[0]!.sequence;
  expect(stored.map((e) => e.sequence)).toEqual(Array.from({ length: 120 }, (_, i) => first + i));
  expect(stored.map((e) => e.details.i)).toEqual(Array.from({ length: 120 }, (_, i) => i));
  expect(stored.every((e) => e.tenant_id === tenant.id && e.hash.length === 64)).toBe(true);
  // Far fewer transactions than events (the first goes alone, the rest gather behind it).
  expect(await transactionsWriting(tenant.id)).toBeLessThan(20);

  const verify = await client(api.url, viewer.token).get(`/api/v1/tenants/${tenant.id}/audit/verify`);
  expect(verify.json).toMatchObject({ valid: true, first_invalid_sequence: null });
});

test("an event the database refuses fails alone; the rest of its batch is recorded", async () => {
  const { tenant } = await tenantWithMembers();
  const db = await database();
  const good = (i: number) =>
    appendToLog(db, tenant.id, { actor, appendedBy: TEST_APPENDER, event: { type: "order.placed", tenantId: tenant.id, details: { i } } });
  // Queued under this tenant but naming a tenant that does not exist: the foreign key refuses it.
  const bad = appendToLog(db, tenant.id, {
    actor,
    appendedBy: TEST_APPENDER,
    event: { type: "order.placed", tenantId: randomUUID(), details: {} },
  });
  const results = await Promise.allSettled([good(0), good(1), bad, good(2), good(3)]);
  expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled"]);
  const rows = await db.sql.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM audit_events WHERE tenant_id = $1::uuid AND event_type = 'order.placed'",
    [tenant.id],
  );
  expect(rows[0]!.n).toBe(4);
});

test("a multi-event job stays contiguous and in order among others, and fails whole and alone", async () => {
  const { tenant, viewer } = await tenantWithMembers();
  const db = await database();
  const item = (job: number, i: number, tenantId = tenant.id) => ({
    actor,
    appendedBy: TEST_APPENDER,
    event: { type: "order.placed", tenantId, details: { job, i } },
  });
  const job = (n: number, size: number) =>
    appendManyToLog(
      db,
      tenant.id,
      Array.from({ length: size }, (_, i) => item(n, i)),
    );
  // Job 2 carries one event the foreign key refuses: it fails whole, the jobs around it do not.
  const bad = appendManyToLog(db, tenant.id, [item(2, 0), item(2, 1, randomUUID()), item(2, 2)]);
  const results = await Promise.allSettled([
    job(0, 3),
    appendToLog(db, tenant.id, item(1, 0)),
    bad,
    job(3, 4),
    appendToLog(db, tenant.id, item(4, 0)),
  ]);
  expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled"]);

  const jobs = results.map((r) => (r.status === "fulfilled" ? [r.value].flat() : []));
  for (const [n, stored] of jobs.entries()) {
    expect(stored.map((e) => e.details)).toEqual(stored.map((_, i) => ({ job: n, i })));
    expect(stored.map((e) => e.sequence)).toEqual(stored.map((_, i) => stored[0]!.sequence + i));
  }
  // In arrival order, no gaps: 3 + 1 + 4 + 1 events.
  const all = jobs.flat();
  expect(all.map((e) => e.sequence)).toEqual(all.map((_, i) => all[0]!.sequence + i));
  const rows = await db.sql.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM audit_events WHERE tenant_id = $1::uuid AND details->>'job' = '2'",
    [tenant.id],
  );
  expect(rows[0]!.n).toBe(0);
  const verify = await client(api.url, viewer.token).get(`/api/v1/tenants/${tenant.id}/audit/verify`);
  expect(verify.json).toMatchObject({ valid: true, first_invalid_sequence: null });
});

test("multi-event jobs share transactions, up to 500 events each", async () => {
  const { tenant } = await tenantWithMembers();
  const db = await database();
  const items = (job: number) =>
    Array.from({ length: 5 }, (_, i) => ({
      actor,
      appendedBy: TEST_APPENDER,
      event: { type: "order.placed", tenantId: tenant.id, details: { job, i } },
    }));
  const stored = await Promise.all(Array.from({ length: 40 }, (_, job) => appendManyToLog(db, tenant.id, items(job))));
  expect(await transactionsWriting(tenant.id)).toBeLessThan(15);
  const all = stored.flat();
  expect(all.map((e) => e.details)).toEqual(Array.from({ length: 200 }, (_, k) => ({ job: Math.floor(k / 5), i: k % 5 })));
  expect(all.map((e) => e.sequence)).toEqual(all.map((_, k) => all[0]!.sequence + k));
});

test("a job larger than one transaction's share goes alone, whole", async () => {
  const { tenant } = await tenantWithMembers();
  const db = await database();
  const items = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      actor,
      appendedBy: TEST_APPENDER,
      event: { type: "order.placed", tenantId: tenant.id, details: { i } },
    }));
  const [small, large] = await Promise.all([appendManyToLog(db, tenant.id, items(2)), appendManyToLog(db, tenant.id, items(700))]);
  expect(large.map((e) => e.sequence)).toEqual(large.map((_, i) => small[1]!.sequence + 1 + i));
  expect(large.map((e) => e.details.i)).toEqual(large.map((_, i) => i));
});
