/**
 * Newest-first pages of a large tenant look in the last months' partitions first, and every
 * bound on `timestamp` becomes one on `recorded_at` (server/audit/recorded.ts). That is only right
 * because a timestamp is never more than 5 minutes ahead of its recorded_at: the database refuses
 * one that is. Here a log spread over 14 monthly partitions, with events at that 5-minute lead and
 * events backfilled years into the past (recorded now, dated long ago), is walked page by page,
 * with windows forced on, and every page, count and order is compared with a brute-force sort.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import pg from "pg";
import { tenantWithMembers } from "../support/fixtures.ts";
import { createMonth, monthStart } from "../support/audit-partitions.ts";
import { database } from "../../server/db/client.ts";
import { chainHead, countEvents, findEvents, resolveFilter, type AuditFilterParams, type Bound } from "../../server/audit/query.ts";
import { appendEvent } from "../../server/audit/service.ts";
import { AppError } from "../../server/errors.ts";
import { SYSTEM_PRINCIPAL, SYSTEM_REQUEST } from "../../server/auth/principal.ts";
import type { TenantServiceContext } from "../../server/service-context.ts";

const DAY = 86_400_000;
const LEAD = 5 * 60_000;
const KINDS = ["user.login", "user.created", "invoice.paid"];

interface Row {
  id: string;
  event_type: string;
  actor_id: string;
  timestamp: Date;
}

/** The start of the month 10 minutes ago (this month's, unless the month began minutes ago). */
const M0 = monthStart(new Date(Date.now() - 10 * 60_000)).getTime();

let raw: pg.Client;
let tenantId: string;
let all: Row[];

/** 14 months of events, recorded in order, dated up to a day before, at the 5-minute lead, or years back. */
beforeAll(async () => {
  raw = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await raw.connect();
  tenantId = (await tenantWithMembers()).tenant.id;
  const now = Date.now() - 60_000;
  const first = monthStart(new Date(now - 13 * 31 * DAY));
  for (let at = first; at.getTime() <= now; at = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1))) {
    await createMonth(raw, at);
  }
  const rows: [string, string, Date, Date][] = [];
  const span = now - first.getTime();
  for (let i = 0; i < 420; i++) {
    const recorded = new Date(first.getTime() + Math.floor((span * i) / 420));
    const dated =
      i % 11 === 0
        ? recorded.getTime() - (3 * 365 + i) * DAY // backfilled: recorded now, long ago
        : i % 7 === 0
          ? recorded.getTime() + LEAD // as far ahead as allowed
          : recorded.getTime() - ((i * 7919) % DAY);
    rows.push([KINDS[i % 3]!, `a${i % 4}`, new Date(dated), recorded]);
  }
  // At this month's start: one event recorded in the month before but dated 3 minutes into this
  // one (inside the lead), then 30 recorded and dated just after the start. The newest page before
  // start + 10 min must find the first in the older partition.
  const m = M0;
  rows.push(["user.login", "a0", new Date(m + 3 * 60_000), new Date(m - 2 * 60_000)]);
  for (let i = 0; i < 30; i++) rows.push(["user.login", "a0", new Date(m + 60_000 + i * 1000), new Date(m + i * 1000)]);
  rows.sort((a, b) => a[3].getTime() - b[3].getTime());
  await raw.query(
    `INSERT INTO audit_events (tenant_id, event_type, actor_id, "timestamp", recorded_at)
     SELECT $1::uuid, r.kind, r.actor, r.at, r.recorded
       FROM unnest($2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[]) WITH ORDINALITY AS r(kind, actor, at, recorded, ord)
      ORDER BY r.ord`,
    [tenantId, rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3])],
  );
  const { rows: stored } = await raw.query<Row>(
    `SELECT id, event_type, actor_id, "timestamp" FROM audit_events WHERE tenant_id = $1 ORDER BY "timestamp" DESC, id DESC`,
    [tenantId],
  );
  all = stored;
});
afterAll(async () => {
  await raw.end();
});

const MONTHS = 30 * DAY;
// Filter dates on whole minutes, from one instant of the run.
const T = Math.floor(Date.now() / 60_000) * 60_000;
const iso = (offset: number) => new Date(T + offset).toISOString();
const filters: [string, () => AuditFilterParams, (row: Row) => boolean][] = [
  ["no filter", () => ({}), () => true],
  ["start date (5 months back)", () => ({ start_date: iso(-5 * MONTHS) }), (r) => r.timestamp.getTime() >= T - 5 * MONTHS],
  ["end date (3 months back)", () => ({ end_date: iso(-3 * MONTHS) }), (r) => r.timestamp.getTime() < T - 3 * MONTHS],
  [
    "date range inside the log",
    () => ({ start_date: iso(-9 * MONTHS), end_date: iso(-2 * MONTHS) }),
    (r) => r.timestamp.getTime() >= T - 9 * MONTHS && r.timestamp.getTime() < T - 2 * MONTHS,
  ],
  [
    "end date just after this month's start",
    () => ({ end_date: new Date(M0 + 10 * 60_000).toISOString() }),
    (r) => r.timestamp.getTime() < M0 + 10 * 60_000,
  ],
  ["kind prefix", () => ({ event_type: "user.*" }), (r) => r.event_type.startsWith("user.")],
  ["actor and kind", () => ({ actor_id: "a1", event_type: "invoice.paid" }), (r) => r.actor_id === "a1" && r.event_type === "invoice.paid"],
];

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe.each(filters)("%s, with month windows on", (_name, params, match) => {
  const expected = () => all.filter((r) => match({ ...r, timestamp: new Date(r.timestamp) }));
  async function filterOf() {
    const { sql } = await database();
    const head = await chainHead(sql, tenantId);
    // Windows are for tenants of 20,000 events and more: forced on for this one.
    return { sql, head, filter: { ...resolveFilter(tenantId, params(), head), size: Number.MAX_SAFE_INTEGER } };
  }

  test("cursor pages newest first give every matching event once, in order, and the count agrees", async () => {
    const { sql, head, filter } = await filterOf();
    const seen: Row[] = [];
    let after: Bound | undefined;
    for (;;) {
      const page = await findEvents(sql, filter, { after, order: "desc", skip: 0, take: 21 });
      seen.push(...(page as unknown as Row[]));
      if (page.length < 21) break;
      after = { at: new Date(page.at(-1)!.timestamp), id: page.at(-1)!.id };
    }
    expect(expected().length).toBeGreaterThan(10);
    expect(ids(seen)).toEqual(ids(expected()));
    expect(await countEvents(sql, filter, head)).toBe(expected().length);
  });

  test("offset pages and oldest-first pages from a cursor agree with the sort", async () => {
    const { sql, filter } = await filterOf();
    const want = expected();
    expect(ids(await findEvents(sql, filter, { order: "desc", skip: 6, take: 5 }))).toEqual(ids(want.slice(6, 11)));
    const middle = want[Math.floor(want.length / 2)]!;
    const newer = await findEvents(sql, filter, {
      after: { at: new Date(middle.timestamp), id: middle.id },
      order: "asc",
      skip: 0,
      take: 8,
    });
    expect(ids(newer)).toEqual(
      ids(
        want
          .slice(0, Math.floor(want.length / 2))
          .reverse()
          .slice(0, 8),
      ),
    );
  });
});

describe("the database's bound on timestamps", () => {
  test("a timestamp more than 5 minutes ahead of recorded_at is refused by the database", async () => {
    const error = await raw
      .query(`INSERT INTO audit_events (tenant_id, event_type, "timestamp") VALUES ($1, 'x.y', clock_timestamp() + interval '6 minutes')`, [
        tenantId,
      ])
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "23514", constraint: "audit_events_timestamp_lead" });
  });

  test("an append whose timestamp is ahead of the database's clock is a 400 naming the field, not a 500", async () => {
    const db = await database();
    const ctx = { db, tenantId, actor: { principal: SYSTEM_PRINCIPAL, request: SYSTEM_REQUEST } } as TenantServiceContext;
    const ahead = new Date(Date.now() + 10 * 60_000).toISOString();
    const error = await appendEvent(ctx, { event_type: "x.y", actor: { id: "a" }, timestamp: ahead } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).options).toMatchObject({ errors: [{ path: "timestamp" }] });
  });
});
