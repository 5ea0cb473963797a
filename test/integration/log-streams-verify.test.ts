/**
 * A receiver's copy proves itself: a stream's events as a Splunk HEC intake received them (with
 * a batch sent twice, as at-least-once allows), written one JSON per line, and the digest that
 * rode with the batches, checked by scripts/verify-audit-export.mjs run as an auditor would (a
 * child process on files). A copy with an event changed, or one missing, fails naming the sequence.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, tenantWithMembers } from "../support/fixtures.ts";
import { startSplunkHec, type SplunkHec } from "../support/log-receivers.ts";
import { database } from "../../server/db/client.ts";
import { deliverDueStreams } from "../../server/log-streams/engine.ts";

process.env.LOG_STREAM_BATCH_WAIT_MS = "0";

const run = promisify(execFile);
const api = apiServer();
let hec: SplunkHec;
beforeAll(async () => {
  hec = await startSplunkHec({ token: "hec-token-for-the-verify-test" });
});
afterAll(() => hec.close());

async function verify(dir: string, lines: unknown[], jws: string, jwks: string) {
  writeFileSync(join(dir, "copy.ndjson"), lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
  writeFileSync(join(dir, "digests.txt"), `${jws}\n`);
  writeFileSync(join(dir, "jwks.json"), jwks);
  const args = [
    "scripts/verify-audit-export.mjs",
    "--export",
    join(dir, "copy.ndjson"),
    "--jwks",
    join(dir, "jwks.json"),
    "--digests",
    join(dir, "digests.txt"),
  ];
  return run(process.execPath, args).then(
    ({ stdout }) => ({ code: 0, out: stdout }),
    (error: { code: number; stderr: string }) => ({ code: error.code, out: error.stderr }),
  );
}

test("the copy a receiver holds, with the digest that rode along, verifies; a changed or missing event fails", async () => {
  const world = await tenantWithMembers();
  const admin = client(api.url, world.admin.token);
  const base = `/api/v1/tenants/${world.tenant.id}`;
  const events = Array.from({ length: 300 }, (_, i) => ({
    event_type: "invoice.paid",
    actor: { id: `a-${i}` },
    details: { amount: 1.5, n: i },
  }));
  expect((await admin.post(`${base}/audit/batch`, { events })).status).toBe(201);
  expect((await admin.post(`${base}/audit/digests`)).status).toBe(201);
  expect((await admin.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
  const stream = await admin.post(`${base}/log-streams`, {
    name: "SIEM",
    type: "splunk_hec",
    config: { url: hec.url, token: "hec-token-for-the-verify-test" },
    start_from: "oldest",
  });
  expect(stream.status).toBe(201);
  const db = await database();
  for (let i = 0; i < 20 && (await deliverDueStreams(db, { limit: 50 })).sent; i++);

  const mine = hec.events.filter((e) => (e.event.event as { tenant_id?: string }).tenant_id === world.tenant.id);
  const copy = mine.filter((e) => e.event.sourcetype === "control_plane:audit").map((e) => e.event.event as Record<string, unknown>);
  const digest = mine.find((e) => e.event.sourcetype === "control_plane:digest")?.event.event as { jws: string; to_sequence: number };
  expect(digest?.jws).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  expect(copy.length).toBeGreaterThan(digest.to_sequence);
  const jwks = (await admin.get("/api/v1/audit/jwks.json")).text;
  const dir = mkdtempSync(join(tmpdir(), "stream-copy-"));

  // At least once: the first 100 events arrived twice.
  const ok = await verify(dir, [...copy.slice(0, 150), ...copy.slice(0, 100), ...copy.slice(150)], digest.jws, jwks);
  expect(ok.out).toMatch(/^OK: tenant .*, sequences 1-\d+ complete and unaltered/);
  expect(ok.code).toBe(0);

  const changed = copy.map((e, i) => (i === 41 ? { ...e, details: { ...(e.details as object), amount: 2 } } : e));
  const tampered = await verify(dir, changed, digest.jws, jwks);
  expect(tampered.code).toBe(1);
  expect(tampered.out).toContain(`FAILED at sequence ${copy[41]!.sequence as number}`);

  const missing = await verify(
    dir,
    copy.filter((_, i) => i !== 7),
    digest.jws,
    jwks,
  );
  expect(missing.code).toBe(1);
  expect(missing.out).toContain(`at sequence ${copy[7]!.sequence as number}: the event is missing`);
});
