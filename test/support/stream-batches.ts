/**
 * Log-stream batches made of real audit events: appended to a fresh tenant's chain over the REST
 * API (so sequence, prev_hash and hash are the database's), a digest signed over them when asked,
 * and read back as the audit API presents them (presentEvent), in sequence order. For receivers
 * that keep a copy: consecutive batches of one chain, the JWKS fetched as an auditor would, and the
 * auditors' own check (sdk/src/audit-chain.mjs) run over what a receiver holds.
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { expect } from "vitest";
import { database } from "../../server/db/client.ts";
import { AUDIT_COLUMNS, presentEvent } from "../../server/audit/query.ts";
import type { AuditEventRow } from "../../server/events/types.ts";
import type { AuditEvent } from "../../server/audit/schemas.ts";
import type { AuditDigest } from "../../server/audit/digest-schemas.ts";
import type { StreamBatch } from "../../server/log-streams/sinks/types.ts";
import { verifyAuditExportText } from "../../sdk/src/audit-chain.mjs";
import { client, tenantWithMembers } from "./fixtures.ts";

export interface BatchOptions {
  events: number;
  /** Bytes of filler in each event's details (to reach an intake's size limits). */
  detailsBytes?: number;
  /** Sign a digest after the events (it rides with the batch). */
  digest?: boolean;
  eventType?: string;
}

/** Appends `events` events to a new tenant and returns them as one batch (the whole chain). */
export async function auditBatch(apiUrl: string, options: BatchOptions): Promise<StreamBatch> {
  const world = await tenantWithMembers();
  const admin = client(apiUrl, world.admin.token);
  const base = `/api/v1/tenants/${world.tenant.id}/audit`;
  const filler = "x".repeat(options.detailsBytes ?? 0);
  // Requests stay under the API's 1 MiB body limit.
  const perRequest = Math.max(1, Math.min(1000, Math.floor(800_000 / (filler.length + 500))));
  for (let from = 0; from < options.events; from += perRequest) {
    const count = Math.min(perRequest, options.events - from);
    const res = await admin.post(`${base}/batch`, {
      events: Array.from({ length: count }, (_, i) => ({
        event_type: options.eventType ?? "invoice.paid",
        actor: { id: `billing-${from + i}`, email: "billing@example.com" },
        target: { type: "invoice", id: `inv-${from + i}`, name: `Invoice "${from + i}" [q]` },
        details: { n: from + i, quote: 'a "quoted" \\ value ] here', ...(filler ? { filler } : {}) },
      })),
    });
    expect(res.status, res.text).toBe(201);
  }
  let digest: AuditDigest | null = null;
  if (options.digest) {
    const res = await admin.post(`${base}/digests`);
    expect(res.status, res.text).toBe(201);
    digest = res.json as AuditDigest;
  }
  const { sql } = await database();
  const rows = await sql.query<AuditEventRow>(
    `SELECT ${AUDIT_COLUMNS} FROM audit_events e WHERE e.tenant_id = $1::uuid ORDER BY e.sequence`,
    [world.tenant.id],
  );
  const events = rows.map(presentEvent);
  return {
    stream_id: randomUUID(),
    tenant_id: world.tenant.id,
    from_sequence: events[0]?.sequence ?? 0,
    to_sequence: events.at(-1)?.sequence ?? 0,
    events,
    digest,
    test: false,
  };
}

const run = promisify(execFile);

type Admin = ReturnType<typeof client>;

/** Appends `count` events (some with a named target, some with odd text) through the REST API. */
export async function appendEvents(admin: Admin, tenantId: string, count: number, from = 1): Promise<void> {
  for (let start = 0; start < count; start += 500) {
    const events = Array.from({ length: Math.min(500, count - start) }, (_, i) => {
      const n = from + start + i;
      return {
        event_type: n % 2 ? "invoice.paid" : "report.exported",
        actor: { id: `billing-${n}`, email: "billing@example.com" },
        ...(n % 3 === 0 ? { target: { type: "invoice", id: `inv-${n}`, name: `Invoice "${n}" ü€\n` } } : {}),
        details: { n, amount: 1.5, nested: { list: [n, "x"] } },
      };
    });
    const res = await admin.post(`/api/v1/tenants/${tenantId}/audit/batch`, { events });
    expect(res.status, res.text).toBe(201);
  }
}

export async function signDigest(admin: Admin, tenantId: string): Promise<AuditDigest> {
  const res = await admin.post(`/api/v1/tenants/${tenantId}/audit/digests`);
  expect(res.status, res.text).toBeLessThan(300);
  return res.json as AuditDigest;
}

export async function fetchJwks(admin: Admin): Promise<{ keys: JsonWebKey[] }> {
  const res = await admin.get("/api/v1/audit/jwks.json");
  expect(res.status, res.text).toBe(200);
  return res.json;
}

/** The tenant's events in sequence order, as the audit API presents them. */
export async function chainEvents(tenantId: string, from = 1, to = Number.MAX_SAFE_INTEGER): Promise<AuditEvent[]> {
  const { sql } = await database();
  const rows = await sql.query<AuditEventRow>(
    `SELECT ${AUDIT_COLUMNS} FROM audit_events e WHERE e.tenant_id = $1::uuid AND e.sequence BETWEEN $2 AND $3 ORDER BY e.sequence`,
    [tenantId, from, to],
  );
  return rows.map(presentEvent);
}

export function batchOf(
  events: AuditEvent[],
  options: { digest?: AuditDigest | null; streamId?: string; test?: boolean } = {},
): StreamBatch {
  return {
    stream_id: options.streamId ?? randomUUID(),
    tenant_id: events[0]!.tenant_id!,
    from_sequence: events[0]!.sequence,
    to_sequence: events.at(-1)!.sequence,
    events,
    digest: options.digest ?? null,
    test: options.test ?? false,
  };
}

/** Consecutive batches of `size` events covering `events`. */
export function batchesOf(events: AuditEvent[], size: number, options: { digest?: AuditDigest | null; streamId?: string } = {}) {
  const batches: StreamBatch[] = [];
  for (let i = 0; i < events.length; i += size) batches.push(batchOf(events.slice(i, i + size), options));
  return batches;
}

/**
 * What the auditors' check (sdk/src/audit-chain.mjs, as scripts/verify-audit-export.mjs runs it)
 * says of a receiver's copy: the events it holds as NDJSON, in the order given, against the
 * digests it was sent and the JWKS.
 */
export function verifyReceived(events: unknown[], digests: string[], jwks: { keys: JsonWebKey[] }) {
  return verifyAuditExportText({ exportText: events.map((e) => JSON.stringify(e)).join("\n"), jwks, digests });
}

/** scripts/verify-audit-export.mjs run as an auditor would, in a child process: its exit code and line. */
export async function verifyScript(exports: string[], jwksFile: string, digestsFile: string): Promise<{ code: number; out: string }> {
  const args = ["scripts/verify-audit-export.mjs", "--export", ...exports, "--jwks", jwksFile, "--digests", digestsFile];
  try {
    const { stdout } = await run(process.execPath, args);
    return { code: 0, out: stdout.trim() };
  } catch (error) {
    const { code, stderr } = error as { code: number; stderr: string };
    return { code, out: stderr.trim() };
  }
}
