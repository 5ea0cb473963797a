/** Group commit of appended events: concurrent appends share transactions, in order, and fail alone. */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startApi, type TestApi } from "../support/api.ts";
import { client, tenantWithMembers } from "../support/fixtures.ts";
import { database } from "../../server/db/client.ts";
import { appendToLog } from "../../server/audit/appender.ts";

let api: TestApi;
beforeAll(async () => (api = await startApi()));
afterAll(() => api.close());

const actor = { id: "app-user", email: "app@example.com", ip: "198.51.100.4", userAgent: "batch-test" };

test("concurrent appends to one tenant go in together, in the order they arrived, as one intact chain", async () => {
  const { tenant, viewer } = await tenantWithMembers();
  const db = await database();
  const before = await db.sql.query<{ commits: string }>("SELECT xact_commit::text AS commits FROM pg_stat_database WHERE datname = current_database()");
  const stored = await Promise.all(
    Array.from({ length: 120 }, (_, i) => appendToLog(db, tenant.id, { actor, event: { type: "order.placed", tenantId: tenant.id, details: { i } } })),
  );
  const after = await db.sql.query<{ commits: string }>("SELECT xact_commit::text AS commits FROM pg_stat_database WHERE datname = current_database()");

  // tenantWithMembers wrote its own events first; the appends follow in call order, no gaps.
  const first = stored[0]!.sequence;
  expect(stored.map((e) => e.sequence)).toEqual(Array.from({ length: 120 }, (_, i) => first + i));
  expect(stored.map((e) => e.details.i)).toEqual(Array.from({ length: 120 }, (_, i) => i));
  expect(stored.every((e) => e.tenant_id === tenant.id && e.hash.length === 64)).toBe(true);
  // Far fewer transactions than events (the first goes alone, the rest gather behind it).
  expect(Number(after[0]!.commits) - Number(before[0]!.commits)).toBeLessThan(20);

  const verify = await client(api.url, viewer.token).get(`/api/v1/tenants/${tenant.id}/audit/verify`);
  expect(verify.json).toMatchObject({ valid: true, first_invalid_sequence: null });
});

test("an event the database refuses fails alone; the rest of its batch is recorded", async () => {
  const { tenant } = await tenantWithMembers();
  const db = await database();
  const good = (i: number) => appendToLog(db, tenant.id, { actor, event: { type: "order.placed", tenantId: tenant.id, details: { i } } });
  // Queued under this tenant but naming a tenant that does not exist: the foreign key refuses it.
  const bad = appendToLog(db, tenant.id, { actor, event: { type: "order.placed", tenantId: randomUUID(), details: {} } });
  const results = await Promise.allSettled([good(0), good(1), bad, good(2), good(3)]);
  expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled"]);
  const rows = await db.sql.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM audit_events WHERE tenant_id = $1::uuid AND event_type = 'order.placed'",
    [tenant.id],
  );
  expect(rows[0]!.n).toBe(4);
});
