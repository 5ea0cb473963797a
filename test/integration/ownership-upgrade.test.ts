/**
 * Issue 38: upgrading to the ownership model keeps existing tenants working and deletes nothing. A
 * database migrated up to the release before it, holding a directory that linked people inside and
 * outside the tenant's verified domain (the way the old lifecycle did), is migrated with the
 * project's runner: directory users outside the verified domains are unlinked and the memberships
 * they had stay, flagged for review; a membership the directory made stays governed by it; one
 * that existed before it becomes the admins'; and the last admin is kept from then on.
 */
import { afterAll, expect, test } from "vitest";
import { connectPostgres, type Database } from "../../server/db/client.ts";
import { migrate } from "../../server/db/migrate.ts";
import { createDatabase } from "../support/databases.ts";
import { migrationsBefore } from "../support/migrations.ts";

const OWNERSHIP = "20261210000000_account_ownership";

const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
});

async function one<T extends object>(db: Database, text: string, params: unknown[] = []): Promise<T> {
  const [row] = await db.sql.query<T>(text, params);
  return row!;
}

test("directory links outside the verified domains are undone; memberships stay, flagged; nothing is deleted", async () => {
  const db = connectPostgres(await createDatabase(`cp_upgrade_ownership_${Date.now()}`), 2);
  opened.push(db);
  await migrate(db.sql, migrationsBefore(OWNERSHIP));

  const { id: tenant } = await one<{ id: string }>(db, `INSERT INTO tenants (name) VALUES ('Acme') RETURNING id::text`);
  await db.sql.query(
    `INSERT INTO domains (tenant_id, domain, state, verification_value, verification_method, verified_at)
     VALUES ($1::uuid, 'acme.example', 'verified', 'v', 'override', now())`,
    [tenant],
  );
  const { id: directory } = await one<{ id: string }>(
    db,
    `INSERT INTO directories (tenant_id, name, token_hash, token_hint, default_role) VALUES ($1::uuid, 'Okta', 'h', 'hint', 'viewer')
     RETURNING id::text`,
    [tenant],
  );
  const user = async (email: string) =>
    (await one<{ id: string }>(db, `INSERT INTO users (email) VALUES ($1) RETURNING id::text`, [email])).id;
  // Nina, also in the domain, has no account: the directory gave her no role.
  const [alice, dora, eve] = [await user("alice@acme.example"), await user("dora@acme.example"), await user("eve@evil.test")];
  // Alice was an admin before the directory; it made Dora a viewer and Eve (outside the domain) an admin.
  await db.sql.query(
    `INSERT INTO memberships (tenant_id, user_id, role) VALUES ($1::uuid, $2::uuid, 'admin'), ($1::uuid, $3::uuid, 'viewer'), ($1::uuid, $4::uuid, 'admin')`,
    [tenant, alice, dora, eve],
  );
  const created = (userId: string, email: string, details: object) =>
    db.sql.query(
      `INSERT INTO audit_events (tenant_id, event_type, actor_id, target_type, target_id, details)
       VALUES ($1::uuid, 'user.created', $2, 'user', $3, $4::jsonb)`,
      [tenant, `directory:${directory}`, userId, JSON.stringify({ email, ...details })],
    );
  await created(alice, "alice@acme.example", { role: "admin", via: "invitation" });
  await created(dora, "dora@acme.example", { role: "viewer", method: "directory", directory_id: directory });
  await created(eve, "eve@evil.test", { role: "admin", method: "directory", directory_id: directory });
  const directoryUser = async (email: string | null, userId: string | null) =>
    (
      await one<{ id: string }>(
        db,
        `INSERT INTO directory_users (directory_id, tenant_id, user_name, primary_email, resource, user_id, role)
         VALUES ($1::uuid, $2::uuid, $3, $4, '{}', $5::uuid, 'viewer') RETURNING id::text`,
        [directory, tenant, email ?? `no-email-${Math.random()}`, email, userId],
      )
    ).id;
  const ids = {
    alice: await directoryUser("alice@acme.example", alice),
    dora: await directoryUser("dora@acme.example", dora),
    eve: await directoryUser("eve@evil.test", eve),
    ghost: await directoryUser(null, null),
    nina: await directoryUser("nina@acme.example", null),
  };
  const counts = `SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM memberships)::int AS memberships,
                         (SELECT count(*) FROM directory_users)::int AS directory_users`;
  const before = await one<object>(db, counts);

  const { applied } = await migrate(db.sql);
  expect(applied).toContain(OWNERSHIP);

  expect(await one<object>(db, counts)).toEqual(before);
  const linkOf = (id: string) =>
    one<{ user_id: string | null; unlinked_reason: string | null }>(
      db,
      `SELECT user_id::text, unlinked_reason FROM directory_users WHERE id = $1::uuid`,
      [id],
    );
  expect(await linkOf(ids.alice)).toEqual({ user_id: alice, unlinked_reason: null });
  expect(await linkOf(ids.dora)).toEqual({ user_id: dora, unlinked_reason: null });
  expect(await linkOf(ids.eve)).toEqual({ user_id: null, unlinked_reason: "outside_verified_domains" });
  expect(await linkOf(ids.ghost)).toEqual({ user_id: null, unlinked_reason: "no_email" });
  expect(await linkOf(ids.nina)).toEqual({ user_id: null, unlinked_reason: "no_account" });

  const memberships = await db.sql.query<{ user_id: string; role: string; directory_id: string | null; review_reason: string | null }>(
    `SELECT user_id::text, role, directory_id::text, review_reason FROM memberships WHERE tenant_id = $1::uuid ORDER BY user_id`,
    [tenant],
  );
  const byUser = Object.fromEntries(memberships.map((m) => [m.user_id, m]));
  expect(byUser[alice]).toMatchObject({ role: "admin", directory_id: null, review_reason: null });
  expect(byUser[dora]).toMatchObject({ role: "viewer", directory_id: directory, review_reason: null });
  expect(byUser[eve]).toMatchObject({ role: "admin", directory_id: null, review_reason: "directory_outside_verified_domains" });

  // From now on the tenant keeps an admin: Eve may go, then Alice may not.
  await db.sql.query(`DELETE FROM memberships WHERE tenant_id = $1::uuid AND user_id = $2::uuid`, [tenant, eve]);
  await expect(db.sql.query(`DELETE FROM memberships WHERE tenant_id = $1::uuid AND user_id = $2::uuid`, [tenant, alice])).rejects.toThrow(
    /without an admin/,
  );
});
