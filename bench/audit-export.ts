/**
 * The export part of `npm run bench:audit`: a tenant's whole log as CSV through the app (streamed,
 * read to the end; time and the app's RSS growth, sampled from /proc every 25 ms), and the same
 * rows and columns by `psql \copy` to a file.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./harness.ts";
import type { Server } from "./procs.ts";

function rssKiB(pid: number): number {
  return Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? "0");
}

export async function exportThroughApp(app: Server, token: string, tenantId: string) {
  const pid = app.child.pid!;
  const before = rssKiB(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssKiB(pid))), 25);
  const started = performance.now();
  const response = await fetch(`${app.url}/api/v1/tenants/${tenantId}/audit/export?format=csv`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.status !== 200 || !response.body) throw new Error(`export: ${response.status}`);
  let lines = 0;
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  return { seconds, rows: lines - 1, bytes, rssGrowthMiB: (peak - before) / 1024, rssBeforeMiB: before / 1024 };
}

/** The same rows as the app's export (which stops at the chain head it started from), via COPY. */
export function exportThroughCopy(dbUrl: string, tenantId: string, maxSequence: number) {
  const file = path.join(ROOT, "bench/results/audit-copy.csv");
  const query = `SELECT id, event_type, actor_id, actor_email, "timestamp", ip_address, user_agent, target_type, target_id, details, sequence, hash
    FROM audit_events WHERE tenant_id = '${tenantId}' AND sequence <= ${maxSequence} ORDER BY "timestamp" DESC, id DESC`;
  mkdirSync(path.dirname(file), { recursive: true });
  const started = performance.now();
  execFileSync("psql", [dbUrl, "-q", "-c", `\\copy (${query.replace(/\s+/g, " ")}) to '${file}' csv header`]);
  const seconds = (performance.now() - started) / 1000;
  const rows = readFileSync(file, "utf8").split("\n").length - 2;
  rmSync(file);
  return { seconds, rows };
}
