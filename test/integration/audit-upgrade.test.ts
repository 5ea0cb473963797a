/**
 * Upgrading keeps every event: a database migrated up to 20261122020000 (before partitions and
 * count rollups) and holding events written by that schema's triggers is migrated with the
 * project's runner; every row (id, sequence, prev_hash, hash and the rest) survives unchanged,
 * audit_events is partitioned, counts and chains verify, and appends go on. On Postgres and PGlite.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, test } from "vitest";
import { connectPostgres, openPglite, type Database } from "../../server/db/client.ts";
import { migrate } from "../../server/db/migrate.ts";
import { verifyChain as verifyService } from "../../server/audit/verify.ts";
import type { TenantServiceContext } from "../../server/service-context.ts";
import { chainHead, countEvents, resolveFilter } from "../../server/audit/query.ts";
import { emitEvent } from "../../server/events/emit.ts";
import { createDatabase } from "../support/databases.ts";
import { migrationsUpTo } from "../support/migrations.ts";

const BEFORE = "20261122020000_webhooks";

const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
});

const COLUMNS = `id, tenant_id, event_type, actor_id, actor_email, ip_address, user_agent, target_type, target_id,
  details, "timestamp", sequence::text, prev_hash, hash`;

/** Events as the old schema wrote them: two tenants and the platform chain, timestamps out of order. */
async function writeOldEvents(db: Database, perTenant: number): Promise<string[]> {
  const tenants = await db.sql.query<{ id: string }>(`INSERT INTO tenants (name) VALUES ('Old 1'), ('Old 2') RETURNING id`);
  for (const [i, { id }] of tenants.entries()) {
    for (let done = 0; done < perTenant; done += 50) {
      await db.sql.query(
        `INSERT INTO audit_events (tenant_id, event_type, actor_id, actor_email, details, "timestamp")
         SELECT $1::uuid, (ARRAY['user.login', 'user.created', 'invoice.paid'])[1 + g % 3], 'actor-' || g % 4, 'a@example.com',
                jsonb_build_object('g', g, 'i', $2::int),
                -- mostly forward over two years, every seventh backdated by a year
                now() - make_interval(days => 730 - g) - CASE WHEN g % 7 = 0 THEN INTERVAL '365 days' ELSE INTERVAL '0' END
           FROM generate_series($3::int, $4::int) g ORDER BY g`,
        [id, i, done, Math.min(done + 50, perTenant) - 1],
      );
    }
  }
  await db.sql.query(
    `INSERT INTO audit_events (tenant_id, event_type, details) SELECT NULL, 'user.login_failed', '{}' FROM generate_series(1, 3)`,
  );
  return tenants.map((t) => t.id);
}

/** The verify service on `db` (it reads only the database and the tenant from its context). */
const verifyChain = (db: Database, tenantId: string) => verifyService({ db, tenantId } as TenantServiceContext, {});

async function upgrade(db: Database, perTenant: number) {
  await migrate(db.sql, migrationsUpTo(BEFORE));
  const tenants = await writeOldEvents(db, perTenant);
  const before = await db.sql.query(`SELECT ${COLUMNS} FROM audit_events ORDER BY tenant_id NULLS FIRST, sequence`);
  expect(before.length).toBe(2 * perTenant + 3);

  const { applied } = await migrate(db.sql);
  expect(applied).toContain("20261124001000_audit_partitions");

  const after = await db.sql.query(`SELECT ${COLUMNS} FROM audit_events ORDER BY tenant_id NULLS FIRST, sequence`);
  expect(after).toEqual(before);
  const [partitioned] = await db.sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_partitioned_table WHERE partrelid = 'audit_events'::regclass`,
  );
  expect(partitioned!.n).toBe(1);
  for (const tenantId of tenants) {
    expect(await verifyChain(db, tenantId)).toMatchObject({ valid: true, checked: perTenant, head_sequence: perTenant });
    const head = await chainHead(db.sql, tenantId);
    const filter = resolveFilter(tenantId, { event_type: "user.*", actor_id: "actor-1", start_date: "2025-06-15T10:30:00Z" }, head);
    const [brute] = await db.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_events WHERE tenant_id = $1 AND event_type LIKE 'user.%' AND actor_id = 'actor-1'
          AND "timestamp" >= '2025-06-15T10:30:00Z'`,
      [tenantId],
    );
    expect(await countEvents(db.sql, filter, head)).toBe(brute!.n);
  }
  // Appends go on at each chain's head.
  const stored = await emitEvent(
    db.sql,
    { id: "after", email: null, ip: null, userAgent: null },
    { type: "user.login", tenantId: tenants[0]!, details: { method: "password" } },
  );
  expect(stored.sequence).toBe(perTenant + 1);
  expect(await verifyChain(db, tenants[0]!)).toMatchObject({ valid: true, checked: perTenant + 1 });
}

describe("upgrading a populated audit log", () => {
  test("on Postgres every event, sequence and hash survives", async () => {
    const url = await createDatabase(`${inject("runPrefix")}_upgrade_${process.pid}`);
    const db = connectPostgres(url, 4);
    opened.push(db);
    await upgrade(db, 400);
  }, 120_000);

  test("on the embedded database too", async () => {
    const db = await openPglite(mkdtempSync(path.join(tmpdir(), "cp-upgrade-")));
    opened.push(db);
    await upgrade(db, 120);
  }, 180_000);
});
