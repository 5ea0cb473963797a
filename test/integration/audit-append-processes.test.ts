/**
 * Appends from several server processes to one tenant's chain: each process group-commits its own
 * concurrent appends (server/audit/appender.ts) and the chain head's row lock orders the
 * transactions of all of them, so the chain stays whole. Here: an instance serving in a cluster of
 * two workers (WEB_CONCURRENCY=2, server/ops/cluster.ts) and a second, single-process instance,
 * all appending at once; then the cluster stops on SIGTERM as one instance does.
 */
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, test } from "vitest";
import { client, tenantWithMembers } from "../support/fixtures.ts";
import { startInstance, type Instance } from "../support/instances.ts";
import { database } from "../../server/db/client.ts";

const SCRIPT = "test/support/app-instance.ts";
const ENV = { INTERNAL_CRON: "off", LOG_LEVEL: "warn" };

/** The processes the primary forked to serve (its workers; not tsx's esbuild service). */
function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`)
    .flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(/\s+/).filter(Boolean).map(Number))
    .filter((child) => readFileSync(`/proc/${child}/cmdline`, "utf8").includes(SCRIPT));
}

let clustered: Instance;
let single: Instance;
beforeAll(async () => {
  [clustered, single] = await Promise.all([startInstance({ ...ENV, WEB_CONCURRENCY: "2" }, SCRIPT, 2), startInstance(ENV, SCRIPT)]);
}, 120_000);
afterAll(async () => {
  await Promise.all([clustered?.stop(), single?.stop()]);
});

test("appends from two workers and another instance at once form one whole chain", async () => {
  expect(childrenOf(clustered.child.pid!), clustered.stderr()).toHaveLength(2);
  const world = await tenantWithMembers();
  const urls = [clustered.url, single.url];
  const total = 600;
  let next = 0;
  const statuses: number[] = [];
  // 40 callers, each on a new connection per request (so the cluster spreads them over its workers).
  await Promise.all(
    Array.from({ length: 40 }, async () => {
      for (let n = next++; n < total; n = next++) {
        const response = await fetch(`${urls[n % 2]}/api/v1/tenants/${world.tenant.id}/audit`, {
          method: "POST",
          headers: { authorization: `Bearer ${world.admin.token}`, "content-type": "application/json", connection: "close" },
          body: JSON.stringify({ event_type: "app.step", actor: { id: `caller-${n % 7}` }, details: { n } }),
        });
        statuses.push(response.status);
        await response.arrayBuffer();
      }
    }),
  );
  expect(
    statuses.filter((s) => s !== 201),
    clustered.stderr() + single.stderr(),
  ).toEqual([]);

  const { sql } = await database();
  const rows = await sql.query<{ sequence: number; n: number }>(
    `SELECT sequence::int AS sequence, (details->>'n')::int AS n FROM audit_events WHERE tenant_id = $1::uuid ORDER BY 1`,
    [world.tenant.id],
  );
  expect(rows.map((r) => r.sequence)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  expect(new Set(rows.map((r) => r.n)).size).toBe(total);
  const verify = await client(clustered.url, world.admin.token).get(`/api/v1/tenants/${world.tenant.id}/audit/verify`);
  expect(verify.json).toMatchObject({ valid: true, checked: total, head_sequence: total });
}, 120_000);

test("the cluster answers its probes, and SIGTERM to the primary stops every worker gracefully (exit 0)", async () => {
  const workers = childrenOf(clustered.child.pid!);
  for (let i = 0; i < 4; i++) {
    const response = await fetch(`${clustered.url}/api/health/ready`, { headers: { connection: "close" } });
    expect(response.status).toBe(200);
  }
  const exited = new Promise<number | null>((resolve) => clustered.child.once("exit", (code) => resolve(code)));
  clustered.child.kill("SIGTERM");
  expect(await exited).toBe(0);
  for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
}, 60_000);
