/**
 * Shared reads (server/db/shared-read.ts): the token and tenant lookups of concurrent requests
 * share one query, and never one that started before a request asked (so a revocation committed
 * before a request arrived always refuses it).
 */
import { expect, test } from "vitest";
import { database } from "../../server/db/client.ts";
import type { SqlRunner } from "../../server/db/sql.ts";
import { sharedRead } from "../../server/db/shared-read.ts";
import { hashToken, resolveBearer } from "../../server/auth/tokens.ts";
import { apiServer } from "../support/api-server.ts";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";

const api = apiServer();

/** The real pool's runner, counting the statements it is given. */
async function counted(): Promise<{ sql: SqlRunner; texts: string[] }> {
  const real = (await database()).sql;
  const texts: string[] = [];
  const sql: SqlRunner = {
    exec: (script) => real.exec(script),
    transaction: (fn) => real.transaction(fn),
    query(text, params, options) {
      texts.push(text);
      return real.query(text, params, options);
    },
  };
  return { sql, texts };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

test("reads asked in one turn share one query; different parameters do not", async () => {
  const { sql, texts } = await counted();
  const text = "SELECT $1::int AS n, pg_backend_pid() AS pid";
  const answers = await Promise.all([
    sharedRead<{ n: number }>(sql, text, [1]),
    sharedRead<{ n: number }>(sql, text, [1]),
    sharedRead<{ n: number }>(sql, text, [1]),
    sharedRead<{ n: number }>(sql, text, [2]),
  ]);
  expect(answers.map(([row]) => row!.n)).toEqual([1, 1, 1, 2]);
  expect(texts).toHaveLength(2);
});

test("a read asked once the shared query has started waits for a query of its own", async () => {
  const { sql, texts } = await counted();
  const text = "SELECT pg_backend_pid() AS pid FROM pg_sleep(0.05)";
  const first = sharedRead<{ pid: number }>(sql, text, []);
  await nextTurn(); // the first query is on its way now
  const second = sharedRead<{ pid: number }>(sql, text, []);
  const [a, b] = await Promise.all([first, second]);
  expect(texts).toHaveLength(2);
  // Both ran at once, each on a connection of its own.
  expect(a).not.toBe(b);
  expect(a[0]!.pid).not.toBe(b[0]!.pid);
});

test("a failed shared query fails every request that shared it, and the next one asks again", async () => {
  const { sql, texts } = await counted();
  const text = "SELECT 1 / $1::int AS q";
  const results = await Promise.allSettled([sharedRead(sql, text, [0]), sharedRead(sql, text, [0])]);
  expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  const [row] = await sharedRead<{ q: number }>(sql, text, [1]);
  expect(row!.q).toBe(1);
  expect(texts).toHaveLength(2);
});

test("a token revoked while its lookups are in flight refuses every request that arrives after", async () => {
  const { tenant, admin } = await tenantWithMembers();
  const sql = (await database()).sql;
  const inFlight = Array.from({ length: 5 }, () => resolveBearer(sql, admin.token));
  await nextTurn(); // the shared lookup has started, the revocation commits while it runs
  await (await db()).apiToken.update({ where: { tokenHash: hashToken(admin.token) }, data: { revokedAt: new Date() } });
  const after = Array.from({ length: 5 }, () => resolveBearer(sql, admin.token));
  expect((await Promise.all(after)).every((r) => "error" in r)).toBe(true);
  await Promise.all(inFlight);
  const answers = await Promise.all(
    Array.from({ length: 10 }, () => client(api.url, admin.token).get(`/api/v1/tenants/${tenant.id}/audit`)),
  );
  expect(answers.map((a) => a.status)).toEqual(Array(10).fill(401));
});

test("concurrent requests of one token to one tenant are answered as each alone would be", async () => {
  const { tenant, admin, viewer } = await tenantWithMembers();
  const [asAdmin, asViewer] = [client(api.url, admin.token), client(api.url, viewer.token)];
  const answers = await Promise.all(
    Array.from({ length: 24 }, (_, i) =>
      i % 2
        ? asViewer.post(`/api/v1/tenants/${tenant.id}/audit`, { event_type: "order.placed", actor: { id: "v" } })
        : asAdmin.post(`/api/v1/tenants/${tenant.id}/audit`, { event_type: "order.placed", actor: { id: "a" }, details: { i } }),
    ),
  );
  // Appending needs the tenant admin role: the viewer's requests share lookups with each other only.
  expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 24 }, (_, i) => (i % 2 ? 403 : 201)));
  expect(answers.filter((_, i) => i % 2 === 0).map((a) => a.json.details.i)).toEqual(Array.from({ length: 12 }, (_, i) => i * 2));
});
