/**
 * The audit export through the SDK: streamed (a Node Readable or a web ReadableStream, read chunk by
 * chunk), and proved complete and unaltered by `verifyAuditExport` against the signed digests and
 * the JWKS, in JSON and CSV; a changed or missing row is found at its sequence.
 */
import { Readable } from "node:stream";
import { beforeAll, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { operator, tenantWithMembers } from "../support/fixtures.ts";
import { ControlPlane, ControlPlaneError, verifyAuditExport, type Schema } from "../../sdk/src/index.ts";

const api = apiServer();
let cp: ControlPlane;
let tenantId: string;
let tenantName: string;
let digests: Schema<"AuditDigest">[];
let jwks: Schema<"AuditJwks">;

beforeAll(async () => {
  const world = await tenantWithMembers();
  tenantId = world.tenant.id;
  tenantName = world.tenant.name;
  cp = new ControlPlane({ baseUrl: api.url, token: world.admin.token });
  const batch = (from: number) =>
    cp.audit.appendBatch(tenantId, {
      events: Array.from({ length: 100 }, (_, i) => ({
        event_type: "invoice.paid",
        actor: { id: `billing-${from + i}`, email: "billing@example.com" },
        details: { n: from + i, note: "x".repeat(200) },
      })),
    });
  await batch(0);
  await cp.audit.createDigest(tenantId);
  await batch(100);
  await batch(200);
  await cp.audit.createDigest(tenantId);
  digests = await cp.audit.digests(tenantId).toArray();
  jwks = await cp.audit.jwks();
});

async function chunksOf(stream: AsyncIterable<Uint8Array | string>) {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return chunks;
}

describe("the export", () => {
  test("is a Node Readable that arrives in chunks, and verifies against the digests", async () => {
    const readable = await cp.audit.export(tenantId);
    expect(readable).toBeInstanceOf(Readable);
    const chunks = await chunksOf(readable);
    expect(chunks.length).toBeGreaterThan(1);
    const text = Buffer.concat(chunks).toString("utf8");
    expect(JSON.parse(text)).toHaveLength(300);
    const proof = await verifyAuditExport({ export: text, jwks, digests });
    expect(proof).toMatchObject({ valid: true, tenantId, firstSequence: 1, digests: 2 });
  });

  test("the web ReadableStream of the CSV export is verified as it is read", async () => {
    const stream = await cp.audit.exportStream(tenantId, { format: "csv" });
    expect(stream).toBeInstanceOf(ReadableStream);
    expect(await verifyAuditExport({ export: stream, jwks, digests: digests.map((d) => d.jws) })).toMatchObject({ valid: true });
  });

  test("a changed row and a missing row are found at their sequence", async () => {
    const events = JSON.parse(Buffer.concat(await chunksOf(await cp.audit.export(tenantId))).toString("utf8")) as {
      sequence: number;
      details: { n?: number };
    }[];
    const target = events.find((e) => e.sequence === 50)!;
    const changed = events.map((e) => (e === target ? { ...e, details: { ...e.details, n: 9999 } } : e));
    expect(await verifyAuditExport({ export: JSON.stringify(changed), jwks, digests })).toMatchObject({ valid: false, sequence: 50 });
    const missing = events.filter((e) => e !== target);
    expect(await verifyAuditExport({ export: JSON.stringify(missing), jwks, digests })).toEqual({
      valid: false,
      sequence: 50,
      reason: "the event is missing from the export",
    });
  });

  test("another tenant's export is a ControlPlaneError before any byte is streamed", async () => {
    const other = await tenantWithMembers();
    const error = await cp.audit.export(other.tenant.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControlPlaneError);
    expect(error).toMatchObject({ status: 404, code: "not_found" });
    const bad = await cp.audit.exportStream(tenantId, { start_date: "yesterday" }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 400, code: "invalid_request" });
  });
});

describe("cp.audit.search (operators and support)", () => {
  test("walks every tenant's matching events by cursor, each naming its tenant; exports them as a stream", async () => {
    const op = await operator();
    const platform = new ControlPlane({ baseUrl: api.url, token: op.token });
    const found = await platform.audit.search({ actor_id: "billing-7", page_size: 1 }).toArray();
    expect(found.map((e) => [e.actor.id, e.tenant_id, e.tenant_name])).toEqual([["billing-7", tenantId, tenantName]]);
    const stream = await platform.audit.searchExportStream({ format: "csv", actor_email: "BILLING@example.com" });
    const lines = (await new Response(stream).text()).trim().split("\n");
    expect(lines[0]!.startsWith("tenant_id,tenant_name,id,")).toBe(true);
    expect(lines).toHaveLength(301);
    const refused = await cp.audit
      .search({ actor_id: "billing-7" })
      .toArray()
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ControlPlaneError);
    expect((refused as ControlPlaneError).status).toBe(403);
  });
});
