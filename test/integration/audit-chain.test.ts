import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { apiServer } from "../support/api-server.ts";
import { client, tenantWithMembers } from "../support/fixtures.ts";
import { connectPostgres, database } from "../../server/db/client.ts";
import { emitEvent, TEST_APPENDER } from "../support/events.ts";
import { appendManyToLog } from "../../server/audit/appender.ts";

const api = apiServer();
let raw: pg.Client;
beforeAll(async () => {
  raw = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await raw.connect();
});
afterAll(async () => {
  await raw.end();
});

/** Nothing purged by retention: the chain is checked from its first event. */
const NO_ANCHOR = { anchor_sequence: 0, anchor_hash: "0".repeat(64) };
const actor = { id: "chain-test", email: "chain@example.com", ip: "127.0.0.1", userAgent: "vitest" };

async function tenantWithEvents(n: number) {
  const world = await tenantWithMembers();
  const { sql } = await database();
  for (let i = 0; i < n; i++) await emitEvent(sql, actor, { type: "thing.happened", tenantId: world.tenant.id, details: { i } });
  const verify = async (query = "") => {
    const res = await client(api.url, world.viewer.token).get(`/api/v1/tenants/${world.tenant.id}/audit/verify${query}`);
    expect(res.status, res.text).toBe(200);
    return res.json;
  };
  return { ...world, verify };
}

/** Runs `statement` with the append-only triggers switched off (as the superuser can). */
async function tamper(statement: string, params: unknown[]) {
  await raw.query("ALTER TABLE audit_events DISABLE TRIGGER USER");
  try {
    await raw.query(statement, params);
  } finally {
    await raw.query("ALTER TABLE audit_events ENABLE TRIGGER USER");
  }
}

describe("the database keeps audit rows append-only", () => {
  test.each([
    ["UPDATE", (t: string) => [`UPDATE audit_events SET details = '{"x":1}' WHERE tenant_id = $1`, [t]] as const],
    ["DELETE", (t: string) => [`DELETE FROM audit_events WHERE tenant_id = $1`, [t]] as const],
    ["TRUNCATE", () => [`TRUNCATE audit_events CASCADE`, []] as const],
  ])("%s is rejected even for the superuser", async (op, build) => {
    const { tenant } = await tenantWithEvents(2);
    const [statement, params] = build(tenant.id);
    await expect(raw.query(statement, [...params])).rejects.toThrow(`audit_events is append-only: ${op} is not allowed`);
    const { rows } = await raw.query(`SELECT count(*)::int AS n FROM audit_events WHERE tenant_id = $1`, [tenant.id]);
    expect(rows[0].n).toBe(2);
  });

  test("a role granted only SELECT and INSERT may append but gets permission denied on UPDATE and DELETE", async () => {
    const { tenant } = await tenantWithEvents(1);
    const role = `audit_app_${randomBytes(4).toString("hex")}`;
    await raw.query(`CREATE ROLE ${role} NOLOGIN`);
    try {
      await raw.query(
        `GRANT SELECT, INSERT ON audit_events TO ${role}; GRANT SELECT, INSERT, UPDATE ON audit_chains, audit_counts TO ${role}`,
      );
      await raw.query("BEGIN");
      await raw.query(`SET LOCAL ROLE ${role}`);
      const inserted = await raw.query(
        `INSERT INTO audit_events (tenant_id, event_type, details) VALUES ($1, 'role.test', '{}') RETURNING sequence::int AS sequence`,
        [tenant.id],
      );
      expect(inserted.rows[0].sequence).toBe(2);
      await raw.query("SAVEPOINT s");
      await expect(raw.query(`UPDATE audit_events SET event_type = 'x.y' WHERE tenant_id = $1`, [tenant.id])).rejects.toThrow(
        "permission denied for table audit_events",
      );
      await raw.query("ROLLBACK TO SAVEPOINT s");
      await expect(raw.query(`DELETE FROM audit_events WHERE tenant_id = $1`, [tenant.id])).rejects.toThrow(
        "permission denied for table audit_events",
      );
    } finally {
      await raw.query("ROLLBACK");
      await raw.query(`DROP OWNED BY ${role}; DROP ROLE ${role}`);
    }
  });
});

describe("verify", () => {
  test("an untouched chain is valid", async () => {
    const { verify } = await tenantWithEvents(7);
    expect(await verify()).toEqual({ valid: true, checked: 7, first_invalid_sequence: null, head_sequence: 7, ...NO_ANCHOR });
    expect(await verify("?from_sequence=5")).toEqual({
      valid: true,
      checked: 3,
      first_invalid_sequence: null,
      head_sequence: 7,
      ...NO_ANCHOR,
    });
    expect(await verify("?from_sequence=99")).toEqual({
      valid: true,
      checked: 0,
      first_invalid_sequence: null,
      head_sequence: 7,
      ...NO_ANCHOR,
    });
  });

  test("a tenant without events has a valid, empty chain", async () => {
    const { verify } = await tenantWithEvents(0);
    expect(await verify()).toEqual({ valid: true, checked: 0, first_invalid_sequence: null, head_sequence: 0, ...NO_ANCHOR });
  });

  test("a row altered with the triggers disabled is found, with its sequence", async () => {
    const { tenant, verify } = await tenantWithEvents(8);
    await tamper(`UPDATE audit_events SET details = '{"i": 999}' WHERE tenant_id = $1 AND sequence = 5`, [tenant.id]);
    expect(await verify()).toEqual({ valid: false, checked: 4, first_invalid_sequence: 5, head_sequence: 8, ...NO_ANCHOR });
    // The rows after it still link to its stored hash.
    expect(await verify("?from_sequence=6")).toMatchObject({ valid: true, checked: 3 });
  });

  test("a row altered with its hash recomputed breaks the next link", async () => {
    const { tenant, verify } = await tenantWithEvents(6);
    await tamper(`UPDATE audit_events SET actor_email = 'mallory@example.com' WHERE tenant_id = $1 AND sequence = 3`, [tenant.id]);
    await tamper(`UPDATE audit_events e SET hash = audit_event_hash(e) WHERE tenant_id = $1 AND sequence = 3`, [tenant.id]);
    expect(await verify()).toMatchObject({ valid: false, first_invalid_sequence: 4 });
  });

  test("a deleted row (a gap) is found", async () => {
    const { tenant, verify } = await tenantWithEvents(6);
    await tamper(`DELETE FROM audit_events WHERE tenant_id = $1 AND sequence = 3`, [tenant.id]);
    expect(await verify()).toEqual({ valid: false, checked: 2, first_invalid_sequence: 3, head_sequence: 6, ...NO_ANCHOR });
  });

  test("deleting the newest rows is found against the chain head", async () => {
    const { tenant, verify } = await tenantWithEvents(5);
    await tamper(`DELETE FROM audit_events WHERE tenant_id = $1 AND sequence >= 4`, [tenant.id]);
    expect(await verify()).toEqual({ valid: false, checked: 3, first_invalid_sequence: 4, head_sequence: 5, ...NO_ANCHOR });
  });

  test("a chain longer than one batch (5,000) is checked across batches: a gap and an altered row past the first are found", async () => {
    const world = await tenantWithMembers();
    const db = await database();
    const items = (from: number) =>
      Array.from({ length: 500 }, (_, i) => ({
        actor,
        appendedBy: TEST_APPENDER,
        event: { type: "bulk.appended", tenantId: world.tenant.id, details: { i: from + i } },
      }));
    for (let from = 0; from < 12_000; from += 500) await appendManyToLog(db, world.tenant.id, items(from));
    const verify = async () => (await client(api.url, world.viewer.token).get(`/api/v1/tenants/${world.tenant.id}/audit/verify`)).json;
    expect(await verify()).toEqual({ valid: true, checked: 12_000, first_invalid_sequence: null, head_sequence: 12_000, ...NO_ANCHOR });
    await tamper(`UPDATE audit_events SET details = '{"i": -1}' WHERE tenant_id = $1 AND sequence = 10001`, [world.tenant.id]);
    expect(await verify()).toEqual({ valid: false, checked: 10_000, first_invalid_sequence: 10_001, head_sequence: 12_000, ...NO_ANCHOR });
    await tamper(`DELETE FROM audit_events WHERE tenant_id = $1 AND sequence = 5001`, [world.tenant.id]);
    expect(await verify()).toEqual({ valid: false, checked: 5_000, first_invalid_sequence: 5_001, head_sequence: 12_000, ...NO_ANCHOR });
  });

  test("a chain head that does not match the last row is found", async () => {
    const { tenant, verify } = await tenantWithEvents(3);
    await raw.query(`UPDATE audit_chains SET hash = repeat('a', 64) WHERE chain_id = $1`, [tenant.id]);
    expect(await verify()).toMatchObject({ valid: false, first_invalid_sequence: 3 });
  });

  test("from_sequence must be an integer of at least 1", async () => {
    const { tenant, viewer } = await tenantWithEvents(1);
    for (const bad of ["0", "-1", "abc", "1.5"]) {
      const res = await client(api.url, viewer.token).get(`/api/v1/tenants/${tenant.id}/audit/verify?from_sequence=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.json.errors[0].path).toBe("from_sequence");
    }
  });
});

test("8 concurrent writers on 8 connections leave one intact chain, sequences 1..8N", async () => {
  const { tenant, verify } = await tenantWithEvents(0);
  const N = 25;
  const writers = Array.from({ length: 8 }, () => connectPostgres(process.env.DATABASE_URL!, 1));
  try {
    await Promise.all(
      writers.map((db, w) =>
        (async () => {
          for (let i = 0; i < N; i++) {
            await db.sql.transaction((tx) => emitEvent(tx, actor, { type: "load.write", tenantId: tenant.id, details: { w, i } }));
          }
        })(),
      ),
    );
  } finally {
    await Promise.all(writers.map((db) => db.close()));
  }
  const { rows } = await raw.query(`SELECT sequence::int AS s FROM audit_events WHERE tenant_id = $1 ORDER BY sequence`, [tenant.id]);
  expect(rows.map((r) => r.s)).toEqual(Array.from({ length: 8 * N }, (_, i) => i + 1));
  expect(await verify()).toEqual({ valid: true, checked: 8 * N, first_invalid_sequence: null, head_sequence: 8 * N, ...NO_ANCHOR });
});
