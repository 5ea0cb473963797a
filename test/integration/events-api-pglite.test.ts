/**
 * The Events API on PGlite (the embedded database `npm start` uses without DATABASE_URL): the
 * cursor reads, and a long poll woken by the commit of an event (PGlite's in-process LISTEN).
 */
import { rmSync } from "node:fs";
import { afterAll, expect, test } from "vitest";
import { openPglite } from "../../server/db/client.ts";
import { migratedPgliteDir } from "../support/pglite-template.ts";
import { emitEvent } from "../../server/events/emit.ts";
import { readFeed } from "../../server/audit/event-feed.ts";
import { SYSTEM_PRINCIPAL, SYSTEM_REQUEST } from "../../server/auth/principal.ts";

let dir = "";
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("reading by cursor and a long poll on PGlite", { timeout: 120_000 }, async () => {
  dir = await migratedPgliteDir("events-api-pglite-");
  const db = await openPglite(dir);
  try {
    const [tenant] = await db.sql.query<{ id: string }>(`INSERT INTO tenants (name) VALUES ('lite') RETURNING id::text`);
    const ctx = { db, actor: { principal: SYSTEM_PRINCIPAL, request: SYSTEM_REQUEST }, tenantId: tenant!.id };
    const actor = { id: null, email: null, ip: null, userAgent: null };
    const emit = (name: string) =>
      db.sql.transaction((tx) => emitEvent(tx, actor, { type: "tenant.created", tenantId: tenant!.id, details: { name } }));

    await emit("first");
    const first = await readFeed(ctx, { tenant_id: tenant!.id });
    expect(first.results.map((e) => e.data.details.name)).toEqual(["first"]);

    const started = Date.now();
    const polled = readFeed(ctx, { tenant_id: tenant!.id, after: first.next_cursor, wait: 10 }).then((page) => ({ page, at: Date.now() }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await emit("second");
    const committed = Date.now();
    const { page, at } = await polled;
    expect(page.results.map((e) => e.data.details.name)).toEqual(["second"]);
    expect(at - started).toBeGreaterThanOrEqual(200);
    expect(at - committed).toBeLessThan(1000);
  } finally {
    await db.close();
  }
});
