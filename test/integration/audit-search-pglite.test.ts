/**
 * The platform audit search, a target filter and the actors in words on PGlite (the embedded
 * database `npm start` uses without DATABASE_URL): the migration's indexes, the one-statement
 * actor lookup and the search's own audit event work there too.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { openPglite } from "../../server/db/client.ts";
import { migrate } from "../../server/db/migrate.ts";
import { emitEvent } from "../../server/events/emit.ts";
import { listEvents } from "../../server/audit/service.ts";
import { searchEvents } from "../../server/audit/search.ts";
import { pageRequest } from "../../server/contract/pagination.ts";
import { SYSTEM_PRINCIPAL, SYSTEM_REQUEST } from "../../server/auth/principal.ts";

const dir = mkdtempSync(path.join(tmpdir(), "audit-search-pglite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("search across tenants, filter by target, and name the actors on PGlite", { timeout: 120_000 }, async () => {
  const db = await openPglite(dir);
  try {
    await migrate(db.sql);
    const tenants = await db.sql.query<{ id: string }>(`INSERT INTO tenants (name) VALUES ('lite one'), ('lite two') RETURNING id::text`);
    const [one, two] = tenants.map((t) => t.id) as [string, string];
    const [dirRow] = await db.sql.query<{ id: string }>(
      `INSERT INTO directories (tenant_id, name, token_hash, token_hint, updated_at) VALUES ($1::uuid, 'Okta', 'h1', 'abcd', now()) RETURNING id::text`,
      [one],
    );
    const emit = (tenantId: string, actorId: string, name: string) =>
      db.sql.transaction((tx) =>
        emitEvent(
          tx,
          { id: actorId, email: null, ip: null, userAgent: null },
          {
            type: "tenant.created",
            tenantId,
            target: { type: "tenant", id: tenantId, name },
            details: { name },
          },
        ),
      );
    await emit(one, `directory:${dirRow!.id}`, "one");
    await emit(two, `directory:${dirRow!.id}`, "two");
    const actor = { principal: SYSTEM_PRINCIPAL, request: SYSTEM_REQUEST };

    const listed = await listEvents({ db, actor, tenantId: one }, { target_id: one, page: pageRequest({}) });
    expect(listed.items.map((e) => e.actor.name)).toEqual(["Directory Okta"]);

    const found = await searchEvents({ db, actor }, { actor_id: `directory:${dirRow!.id}`, page: pageRequest({}) });
    expect(found.items.map((e) => [e.tenant_name, e.actor.name])).toEqual([
      ["lite two", "Directory (deleted)"], // another tenant's id: its name stays unsaid
      ["lite one", "Directory Okta"],
    ]);
    const searched = await searchEvents({ db, actor }, { event_type: "audit.searched", page: pageRequest({}) });
    expect(searched.items[0]).toMatchObject({ tenant_id: null, details: { filters: { actor_id: `directory:${dirRow!.id}` }, results: 2 } });
  } finally {
    await db.close();
  }
});
