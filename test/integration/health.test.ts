/**
 * The probes over real HTTP, served by the production server module: live without I/O, ready only
 * with the database reachable, this build's migrations applied, and the process not draining.
 */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createAppServer, type AppServer } from "../../server/ops/http-server.ts";
import { connectPostgres, database, setDatabase } from "../../server/db/client.ts";
import { readMigrations } from "../../server/db/migrate.ts";
import { startDraining } from "../../server/jobs/draining.ts";

let app: AppServer;
let base: string;
beforeAll(async () => {
  app = createAppServer((_req, res) => {
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => app.server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app.drain(0);
});

const get = async (path: string) => {
  const res = await fetch(`${base}${path}`);
  return { status: res.status, json: await res.json(), headers: res.headers };
};

describe("health probes", () => {
  test("live: 200, no auth, not cached", async () => {
    const res = await get("/api/health/live");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "ok" });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  test("ready: 200 when the database answers and every migration on disk is applied", async () => {
    const res = await get("/api/health/ready");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "ready", checks: { database: "ok", migrations: "ok", draining: false } });
  });

  test("ready: 503 naming the migration this build ships that the database lacks", async () => {
    const { sql } = await database();
    const last = readMigrations().at(-1)!.name;
    const [row] = await sql.query<Record<string, unknown>>(`DELETE FROM "_prisma_migrations" WHERE migration_name = $1 RETURNING *`, [
      last,
    ]);
    try {
      const res = await get("/api/health/ready");
      expect(res.status).toBe(503);
      expect(res.json).toEqual({
        status: "unavailable",
        checks: { database: "ok", migrations: "failed", draining: false },
        pending_migrations: [last],
      });
    } finally {
      const columns = Object.keys(row!);
      await sql.query(
        `INSERT INTO "_prisma_migrations" (${columns.join(", ")}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")})`,
        Object.values(row!),
      );
    }
    expect((await get("/api/health/ready")).status).toBe(200);
  });

  test("ready: 503 when the database cannot be reached (and live stays 200)", async () => {
    const real = await database();
    const unreachable = connectPostgres("postgresql://postgres@127.0.0.1:1/nowhere", 1);
    setDatabase(unreachable);
    try {
      const res = await get("/api/health/ready");
      expect(res.status).toBe(503);
      expect(res.json).toEqual({ status: "unavailable", checks: { database: "failed", migrations: "unknown", draining: false } });
      expect((await get("/api/health/live")).status).toBe(200);
    } finally {
      setDatabase(real);
      await unreachable.close();
    }
  });

  test("metrics are off without METRICS_TOKEN: /api/metrics is a 404 like any unknown path", async () => {
    const res = await fetch(`${base}/api/metrics`, { headers: { authorization: "Bearer anything-at-all-0123" } });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
  });

  test("ready: 503 once the process drains; live stays 200", async () => {
    startDraining();
    const res = await get("/api/health/ready");
    expect(res.status).toBe(503);
    expect(res.json.checks).toEqual({ database: "ok", migrations: "ok", draining: true });
    expect(res.headers.get("connection")).toBe("close");
    expect((await get("/api/health/live")).status).toBe(200);
  });
});
