/**
 * Chains written before sources were recorded stay verifiable (issue 21, finding 6): a database
 * migrated up to the migration before 20261129020000_audit_event_source holds events written the
 * old way and a digest signed over them; after the upgrade those rows are chain version 1, hashed
 * and stored exactly as before, and the events written next are version 2 (with their source).
 * The mixed chain verifies end to end: server-side, and offline (scripts/verify-audit-export.mjs)
 * over JSON and CSV exports with the digest signed before the upgrade and one signed after.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, inject, test } from "vitest";
import { connectPostgres, openPglite, type Database } from "../../server/db/client.ts";
import { migrate } from "../../server/db/migrate.ts";
import { verifyChain } from "../../server/audit/verify.ts";
import { createDigest, publicKeys } from "../../server/audit/digests.ts";
import { exportEvents } from "../../server/audit/export.ts";
import { appendManyToLog } from "../../server/audit/appender.ts";
import { emitEvent } from "../../server/events/emit.ts";
import { SYSTEM_PRINCIPAL, SYSTEM_REQUEST } from "../../server/auth/principal.ts";
import type { TenantServiceContext } from "../../server/service-context.ts";
import { createDatabase } from "../support/databases.ts";
import { migrationsBefore } from "../support/migrations.ts";

const VERSIONS = "20261129020000_audit_event_source";
const run = promisify(execFile);

const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
});

const COLUMNS = `id, tenant_id, event_type, actor_id, actor_email, ip_address, user_agent, target_type, target_id, target_name,
  details, "timestamp", sequence::text, prev_hash, hash`;

const OLD = 20;

/**
 * Events as the code before chain versions wrote them (its INSERT named neither a version nor a
 * source): named and unnamed targets, cells the CSV guards, jsonb digits JavaScript would lose.
 */
async function writeOldEvents(db: Database, tenantId: string) {
  await db.sql.query(
    `INSERT INTO audit_events (tenant_id, event_type, actor_id, actor_email, ip_address, user_agent, target_type, target_id,
                               target_name, details, "timestamp")
     SELECT $1::uuid, (ARRAY['user.login', 'invoice.paid', 'user.deleted'])[1 + g % 3], CASE WHEN g % 5 = 0 THEN '=actor' ELSE 'actor-' || g END,
            'a@example.com', '203.0.113.' || g, 'old/1.0', 'thing', 't' || g, CASE WHEN g % 2 = 0 THEN 'Thing ' || g END,
            jsonb_build_object('g', g, 'amount', 1.50), now() - make_interval(days => 40 - g)
       FROM generate_series(1, ${OLD}) g ORDER BY g`,
    [tenantId],
  );
}

async function text(body: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(body).text();
}

async function verifyOffline(dir: string, files: { export: string; jwks: string; digests: string[] }) {
  const args = [
    "scripts/verify-audit-export.mjs",
    "--export",
    files.export,
    "--jwks",
    files.jwks,
    ...files.digests.flatMap((d) => ["--digests", d]),
  ];
  try {
    return { code: 0, out: (await run(process.execPath, args)).stdout.trim() };
  } catch (error) {
    return { code: (error as { code: number }).code, out: (error as { stderr: string }).stderr.trim() };
  }
}

async function upgradeAndVerify(db: Database) {
  await migrate(db.sql, migrationsBefore(VERSIONS));
  const [tenant] = await db.sql.query<{ id: string }>(`INSERT INTO tenants (name) VALUES ('Before versions') RETURNING id`);
  const tenantId = tenant!.id;
  const ctx = { db, tenantId, actor: { principal: SYSTEM_PRINCIPAL, request: SYSTEM_REQUEST } } as TenantServiceContext;
  await writeOldEvents(db, tenantId);
  const before = await db.sql.query(`SELECT ${COLUMNS} FROM audit_events WHERE tenant_id = $1 ORDER BY sequence`, [tenantId]);
  // Signed by the release before: its head_hash is a version 1 hash.
  const { digest: signedBefore } = await createDigest(ctx);
  expect(signedBefore).toMatchObject({ from_sequence: 1, to_sequence: OLD });

  const { applied } = await migrate(db.sql);
  expect(applied[0]).toBe(VERSIONS);
  // Nothing rewritten: every row as it was, version 1, without a source.
  expect(await db.sql.query(`SELECT ${COLUMNS} FROM audit_events WHERE tenant_id = $1 ORDER BY sequence`, [tenantId])).toEqual(before);
  const versions = await db.sql.query<{ chain_version: number; source_type: string | null; n: number }>(
    `SELECT chain_version::int AS chain_version, source_type, count(*)::int AS n FROM audit_events WHERE tenant_id = $1 GROUP BY 1, 2`,
    [tenantId],
  );
  expect(versions).toEqual([{ chain_version: 1, source_type: null, n: OLD }]);
  expect(await verifyChain(ctx, {})).toMatchObject({ valid: true, checked: OLD });

  // The chain goes on in version 2: a platform event, then an application's batch.
  await emitEvent(
    db.sql,
    { id: "operator-1", email: "op@example.com", ip: "198.51.100.1", userAgent: "console" },
    {
      type: "api_token.created",
      tenantId,
      target: { type: "api_token", id: "tok-1", name: "Billing" },
      details: { name: "Billing", user_id: "operator-1", tenant_id: tenantId, read_only: false, expires_at: null },
    },
  );
  await appendManyToLog(
    db,
    tenantId,
    [1, 2, 3].map((i) => ({
      actor: { id: `billing-${i}`, email: null, ip: null, userAgent: null },
      event: { type: "invoice.paid", tenantId, details: { i, amount: 2.5 } },
      appendedBy: { tokenId: "8c4a3a4e-0000-4000-8000-00000000000" + i, userId: "app-owner" },
    })),
  );
  const { digest: signedAfter } = await createDigest(ctx);
  expect(signedAfter).toMatchObject({ from_sequence: OLD + 1, to_sequence: OLD + 4 });
  const rows = await db.sql.query<{ chain_version: number; source_type: string | null }>(
    `SELECT chain_version::int AS chain_version, source_type FROM audit_events WHERE tenant_id = $1 AND sequence > $2 ORDER BY sequence`,
    [tenantId, OLD],
  );
  expect(rows).toEqual([
    { chain_version: 2, source_type: "platform" },
    { chain_version: 2, source_type: "api" },
    { chain_version: 2, source_type: "api" },
    { chain_version: 2, source_type: "api" },
  ]);
  expect(await verifyChain(ctx, {})).toMatchObject({ valid: true, checked: OLD + 4, first_invalid_sequence: null });
  expect(await verifyChain(ctx, { from_sequence: OLD })).toMatchObject({ valid: true, checked: 5 });

  // Offline: the exports, the two digests given apart, and the keys.
  const dir = mkdtempSync(path.join(tmpdir(), "audit-versions-"));
  const save = (name: string, content: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, content);
    return file;
  };
  const jwks = save("jwks.json", JSON.stringify(await publicKeys(db)));
  const digests = [save("before.json", JSON.stringify(signedBefore)), save("after.json", JSON.stringify(signedAfter))];
  const exports = {
    json: (await exportEvents(ctx, { format: "json", filters: {} })).body,
    csv: (await exportEvents(ctx, { format: "csv", filters: {} })).body,
    keysetCsv: (await exportEvents({ ...ctx, db: { ...db, copyOut: undefined } }, { format: "csv", filters: {} })).body,
  };
  for (const [format, body] of Object.entries(exports)) {
    const exported = await text(body);
    expect(exported, format).toContain(format === "json" ? '"chain_version":1' : ",1,,,");
    const result = await verifyOffline(dir, { export: save(`audit-${format}`, exported), jwks, digests });
    expect(result, format).toEqual({
      code: 0,
      out: expect.stringMatching(new RegExp(`^OK: tenant ${tenantId}, sequences 1-${OLD + 4} complete and unaltered`)),
    });
  }
}

describe("a chain written before chain versions, then appended to", () => {
  test("on Postgres: the old rows verify unchanged and the mixed chain verifies, server-side and offline", async () => {
    const url = await createDatabase(`${inject("runPrefix")}_versions_${process.pid}`);
    const db = connectPostgres(url, 4);
    opened.push(db);
    await upgradeAndVerify(db);
  }, 120_000);

  test("on the embedded database too", async () => {
    const db = await openPglite(mkdtempSync(path.join(tmpdir(), "cp-versions-")));
    opened.push(db);
    await upgradeAndVerify(db);
  }, 180_000);
});
