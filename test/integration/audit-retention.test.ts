/**
 * Monthly partitions and retention: housekeeping drops a month eight years old (through the
 * owner's audit_events_purge), keeps a month inside the seven years, records
 * audit.retention_purged, and the chain verifies from the oldest retained event with the last
 * purged one as its anchor; the app's role still cannot UPDATE, DELETE or drop anything.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import pg from "pg";
import { apiServer } from "../support/api-server.ts";
import { client, tenantWithMembers } from "../support/fixtures.ts";
import { database } from "../../server/db/client.ts";
import { emitEvent } from "../../server/events/emit.ts";
import { runHousekeeping } from "../../server/app/cron.ts";
import { ALL_KINDS_MISMATCHES } from "../support/audit-rollups.ts";
import { createMonth as createMonthAs, monthStart, partitionName } from "../support/audit-partitions.ts";

const createMonth = (at: Date) => createMonthAs(raw, at);

const api = apiServer();
let raw: pg.Client;
beforeAll(async () => {
  raw = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await raw.connect();
});
afterAll(async () => {
  await raw.end();
});

const YEAR = 365.25 * 86_400_000;
/** Events recorded at `at` (as they were, back then), through the chain trigger. */
async function recordedAt(tenantId: string, at: Date, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await raw.query(
      `INSERT INTO audit_events (tenant_id, event_type, actor_id, "timestamp", recorded_at) VALUES ($1, 'old.thing', 'a1', $2, $2)`,
      [tenantId, new Date(at.getTime() + i * 1000)],
    );
  }
}

const exists = async (name: string) => (await raw.query(`SELECT to_regclass($1) IS NOT NULL AS ok`, [name])).rows[0].ok as boolean;

describe("retention", () => {
  const eightYearsAgo = new Date(Date.now() - 8 * YEAR);
  const sixYearsAgo = new Date(Date.now() - 6 * YEAR);
  let world: Awaited<ReturnType<typeof tenantWithMembers>>;
  let other: Awaited<ReturnType<typeof tenantWithMembers>>;
  let oldMonth: string;
  let keptMonth: string;

  beforeAll(async () => {
    oldMonth = await createMonth(eightYearsAgo);
    keptMonth = await createMonth(sixYearsAgo);
    world = await tenantWithMembers();
    other = await tenantWithMembers();
    await recordedAt(world.tenant.id, eightYearsAgo, 5);
    await recordedAt(world.tenant.id, sixYearsAgo, 4);
    await recordedAt(other.tenant.id, sixYearsAgo, 2);
    const { sql } = await database();
    for (const tenantId of [world.tenant.id, world.tenant.id, other.tenant.id]) {
      await emitEvent(
        sql,
        { id: "a2", email: null, ip: null, userAgent: null },
        { type: "user.login", tenantId, details: { method: "password" } },
      );
    }
  });

  test("a month eight years old is dropped, one inside retention is kept, and the chain verifies from its anchor", async () => {
    const c = client(api.url, world.viewer.token);
    const base = `/api/v1/tenants/${world.tenant.id}/audit`;
    expect((await c.get(`${base}/verify`)).json).toMatchObject({ valid: true, checked: 11, head_sequence: 11, anchor_sequence: 0 });
    const { rows: fifth } = await raw.query(`SELECT hash FROM audit_events WHERE tenant_id = $1 AND sequence = 5`, [world.tenant.id]);

    const summary = await runHousekeeping(await database());
    expect(summary.audit_events_purged).toBe(5);
    expect(await exists(oldMonth)).toBe(false);
    expect(await exists(keptMonth)).toBe(true);

    const { rows } = await raw.query(`SELECT sequence::int AS s FROM audit_events WHERE tenant_id = $1 ORDER BY sequence`, [
      world.tenant.id,
    ]);
    expect(rows.map((r) => r.s)).toEqual([6, 7, 8, 9, 10, 11, 12]);
    const verify = (await c.get(`${base}/verify`)).json;
    expect(verify).toEqual({
      valid: true,
      checked: 7,
      first_invalid_sequence: null,
      head_sequence: 12,
      anchor_sequence: 5,
      anchor_hash: fifth[0].hash,
    });

    const list = (await c.get(base)).json;
    expect(list.count).toBe(7);
    expect(list.results[0]).toMatchObject({
      event_type: "audit.retention_purged",
      sequence: 12,
      details: { events_purged: 5, anchor_sequence: 5, anchor_hash: fifth[0].hash, retention_days: 2557, partitions: [oldMonth] },
    });
    expect(list.results.at(-1).prev_hash).toBe(fifth[0].hash);
    // Counts forget the purged events: per kind, and by date over the purged month.
    const kinds = (await c.get(`${base}/event-types`)).json.results;
    expect(kinds).toContainEqual({ event_type: "old.thing", count: 4 });
    const start = monthStart(eightYearsAgo).toISOString();
    expect((await c.get(`${base}?start_date=${start}&end_date=${new Date(Date.now() - 7 * YEAR).toISOString()}`)).json.count).toBe(0);
    expect((await c.get(`${base}?actor_id=a1`)).json.count).toBe(4);
    // Kept: 4 six years old, 2 appended now and the audit.retention_purged event.
    expect((await c.get(`${base}?start_date=${start}`)).json.count).toBe(4 + 2 + 1);
    expect((await raw.query(ALL_KINDS_MISMATCHES)).rows).toEqual([]);

    // The other tenant lost nothing and was not told anything.
    const theirs = (await client(api.url, other.viewer.token).get(`/api/v1/tenants/${other.tenant.id}/audit/verify`)).json;
    expect(theirs).toMatchObject({ valid: true, checked: 3, anchor_sequence: 0 });

    // A second run finds nothing more to drop; appends go on at the head.
    expect((await runHousekeeping(await database())).audit_events_purged).toBe(0);
    await emitEvent(
      (await database()).sql,
      { id: "a3", email: null, ip: null, userAgent: null },
      { type: "user.login", tenantId: world.tenant.id, details: { method: "password" } },
    );
    expect((await c.get(`${base}/verify`)).json).toMatchObject({ valid: true, checked: 8, head_sequence: 13, anchor_sequence: 5 });
  });

  test("housekeeping keeps partitions ready months ahead", async () => {
    const ahead = new Date();
    ahead.setUTCMonth(ahead.getUTCMonth() + 3, 1);
    await runHousekeeping(await database());
    expect(await exists(partitionName(new Date()))).toBe(true);
    expect(await exists(partitionName(ahead))).toBe(true);
  });

  test("the app's role still may not UPDATE, DELETE, drop a month or purge inside a year", async () => {
    const role = `audit_app_${randomBytes(4).toString("hex")}`;
    await raw.query(`CREATE ROLE ${role} NOLOGIN`);
    try {
      // As docs/audit-log.md "Audit log: database roles" sets the app's role up.
      await raw.query(`GRANT SELECT, INSERT ON audit_events TO ${role};
        GRANT SELECT, INSERT, UPDATE ON audit_chains, audit_counts TO ${role};
        GRANT EXECUTE ON FUNCTION audit_events_purge(integer), audit_events_ensure_partitions(integer) TO ${role}`);
      const attempts: [string, string][] = [
        [`UPDATE audit_events SET event_type = 'x.y' WHERE tenant_id = '${world.tenant.id}'`, "permission denied for table audit_events"],
        [`DELETE FROM audit_events WHERE tenant_id = '${world.tenant.id}'`, "permission denied for table audit_events"],
        [`DELETE FROM ${keptMonth}`, `permission denied for table ${keptMonth}`],
        [`TRUNCATE ${keptMonth}`, `permission denied for table ${keptMonth}`],
        [`DROP TABLE ${keptMonth}`, `must be owner of table ${keptMonth}`],
        [`SELECT * FROM audit_events_purge(30)`, "audit retention must be at least 365 days"],
      ];
      for (const [statement, error] of attempts) {
        await raw.query("BEGIN");
        try {
          await raw.query(`SET LOCAL ROLE ${role}`);
          await expect(raw.query(statement), statement).rejects.toThrow(error);
        } finally {
          await raw.query("ROLLBACK");
        }
      }
      // Even the owner's DELETE and TRUNCATE of a month are refused by the triggers.
      await expect(raw.query(`DELETE FROM ${keptMonth}`)).rejects.toThrow("append-only");
      await expect(raw.query(`TRUNCATE ${keptMonth}`)).rejects.toThrow("append-only");
      expect(await exists(keptMonth)).toBe(true);
    } finally {
      await raw.query(`DROP OWNED BY ${role}; DROP ROLE ${role}`);
    }
  });
});
