/**
 * The SCIM endpoint on PGlite (the embedded database `npm start` uses without DATABASE_URL): the
 * same handler over a plain request, through a user's and a group's life, so its raw SQL (batched
 * members, one-statement lists, the request log) runs there too.
 */
import { rmSync } from "node:fs";
import { afterAll, expect, test } from "vitest";
import { openPglite } from "../../server/db/client.ts";
import { migratedPgliteDir } from "../support/pglite-template.ts";
import { newDirectoryToken } from "../../server/directories/token.ts";
import { handleScim } from "../../server/directories/scim/endpoint.ts";
import type { ScimRequest } from "../../server/directories/scim/respond.ts";

let dir = "";
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

test("a user's and a group's life on PGlite", { timeout: 120_000 }, async () => {
  dir = await migratedPgliteDir("scim-endpoint-pglite-");
  const db = await openPglite(dir);
  try {
    const [tenant] = await db.sql.query<{ id: string }>(`INSERT INTO tenants (name) VALUES ('lite') RETURNING id::text`);
    const { token, tokenHash, tokenHint } = newDirectoryToken();
    const [directory] = await db.sql.query<{ id: string }>(
      `INSERT INTO directories (tenant_id, name, token_hash, token_hint) VALUES ($1::uuid, 'lite', $2, $3) RETURNING id::text`,
      [tenant!.id, tokenHash, tokenHint],
    );
    const call = (method: string, rest: string, body?: unknown) => {
      const url = new URL(`http://lite.example${rest}`);
      const request: ScimRequest = {
        method,
        path: `/${directory!.id}${url.pathname}`,
        query: url.searchParams,
        origin: "http://lite.example",
        bearer: token,
        contentType: "application/scim+json",
        ifMatch: null,
        body: body === undefined ? "" : JSON.stringify(body),
        info: { requestId: "lite", ip: "127.0.0.1", userAgent: null },
      };
      return handleScim(db, request) as Promise<{ status: number; headers: Record<string, string>; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const user = await call("POST", "/Users", { userName: "Lite@Example.com", emails: [{ value: "Lite@Example.com", primary: true }] });
    expect(user.status).toBe(201);
    const found = await call("GET", `/Users?filter=${encodeURIComponent('userName eq "lite@example.com"')}`);
    expect(found.body).toMatchObject({ totalResults: 1, Resources: [{ id: user.body.id }] });
    const group = await call("POST", "/Groups", { displayName: "Lite", members: [{ value: user.body.id }] });
    expect(group.body.members).toHaveLength(1);
    const removed = await call("PATCH", `/Groups/${group.body.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "remove", path: `members[value eq "${user.body.id}"]` }],
    });
    expect(removed.status).toBe(200);
    expect(removed.body.members).toEqual([]);
    const off = await call("PATCH", `/Users/${user.body.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "replace", path: "active", value: "False" }],
    });
    expect(off.body).toMatchObject({ active: false, meta: { version: 'W/"2"' } });
    expect((await call("DELETE", `/Users/${user.body.id}`)).status).toBe(204);
    expect((await call("GET", `/Users/${user.body.id}`)).status).toBe(404);
    const [{ n }] = (await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM scim_requests WHERE directory_id = $1::uuid`, [
      directory!.id,
    ])) as [{ n: number }];
    expect(n).toBe(7);
    const events = await db.sql.query<{ event_type: string }>(
      `SELECT event_type FROM audit_events WHERE tenant_id = $1::uuid ORDER BY sequence`,
      [tenant!.id],
    );
    expect(events.map((e) => e.event_type)).toEqual([
      "directory_user.created",
      "directory_group.created",
      "directory_group.user_added",
      "directory_group.user_removed",
      "directory_user.deactivated",
      "directory_user.deleted",
    ]);
  } finally {
    await db.close();
  }
});
