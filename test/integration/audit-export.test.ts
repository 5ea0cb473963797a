import { beforeAll, describe, expect, test } from "vitest";
import { parse } from "csv-parse/sync";
import pg from "pg";
import { encode } from "next-auth/jwt";
import { recordSession } from "../support/console-caller.ts";
import { apiServer } from "../support/api-server.ts";
import { fetchOpenApiDocument, operationAt } from "../support/openapi-document.ts";
import { client, createToken, createUser, tenantWithMembers } from "../support/fixtures.ts";
import { database } from "../../server/db/client.ts";
import { emitEvent } from "../support/events.ts";
import { secrets } from "../../server/secrets/store.ts";
import { CSV_COLUMNS, EXPORT_BATCH } from "../../server/audit/export.ts";
import { exportAudit } from "../../server/http/audit-export.ts";
import { createRestContext } from "../../server/trpc/create-context.ts";
import type { SqlRunner } from "../../server/db/sql.ts";
import * as consoleExport from "../../app/api/console/tenants/[tenantId]/audit/export/route.ts";

const api = apiServer();
let world: Awaited<ReturnType<typeof tenantWithMembers>>;
let base: string;
const BULK = 4500;

beforeAll(async () => {
  world = await tenantWithMembers("Acme Corp, Ltd.");
  base = `/api/v1/tenants/${world.tenant.id}/audit`;
  const { sql } = await database();
  // Enough rows for several export batches, three to a timestamp (ties cross batch edges).
  await sql.query(
    `INSERT INTO audit_events (tenant_id, event_type, actor_id, actor_email, ip_address, user_agent, target_type, target_id, details, "timestamp")
     SELECT $1::uuid, (ARRAY['user.login','user.created','sso_provider.updated'])[1 + g % 3], 'actor-' || (g % 4), 'a' || (g % 4) || '@example.com',
            '10.0.0.' || (g % 250), 'bulk/1.0', 'thing', 't' || g, jsonb_build_object('g', g), timestamptz '2026-01-01' + (g / 3) * interval '1 second'
       FROM generate_series(1, ${BULK}) g`,
    [world.tenant.id],
  );
  // Cells a spreadsheet would run, and cells that need RFC 4180 quoting.
  await emitEvent(
    sql,
    { id: "@evil", email: '=HYPERLINK("http://x")', ip: "10.9.9.9", userAgent: 'agent "quoted", with comma\nand newline' },
    {
      type: "user.login",
      tenantId: world.tenant.id,
      target: { type: "+cmd", id: "-2+3", name: "=SUM(A1)" },
      details: { note: "=1+1", tab: "\tx" },
      timestamp: new Date("2026-02-01T00:00:00Z"),
    },
  );
  await emitEvent(
    sql,
    { id: "\tTabbed", email: "\rcr@example.com", ip: null, userAgent: null },
    { type: "user.created", tenantId: world.tenant.id, timestamp: new Date("2026-02-01T00:00:01Z") },
  );
});

/** The formula guard the export applies: a cell starting with = + - @, tab or CR gets a leading `'`. */
function neutralise(cell: string | null): string | null {
  return cell !== null && /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

type Event = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every event of the list for `query`, all pages by cursor. */
/** The list's events as the export writes them: the record as stored, without the words read with it (`actor.name`, `source_token_name`). */
async function listAll(query: string, token = world.viewer.token): Promise<Event[]> {
  const c = client(api.url, token);
  const out: Event[] = [];
  let res = await c.get(`${base}?${query}&page_size=100`);
  for (;;) {
    expect(res.status, res.text).toBe(200);
    for (const {
      source_token_name: _,
      actor: { name: __, ...actor },
      ...event
    } of res.json.results)
      out.push({ ...event, actor });
    if (!res.json.next_cursor) return out;
    res = await c.get(`${base}?${query}&page_size=100&cursor=${res.json.next_cursor}`);
  }
}

function asCsvRecord(e: Event): Record<string, string> {
  const cells: Record<string, string | null> = {
    id: e.id,
    event_type: e.event_type,
    actor_id: neutralise(e.actor.id),
    actor_email: neutralise(e.actor.email),
    timestamp: e.timestamp,
    ip_address: neutralise(e.metadata.ip_address),
    user_agent: neutralise(e.metadata.user_agent),
    target_type: neutralise(e.target?.type ?? null),
    target_id: neutralise(e.target?.id ?? null),
    details: JSON.stringify(e.details),
    sequence: String(e.sequence),
    hash: e.hash,
    prev_hash: e.prev_hash,
    target_name: neutralise(e.target?.name ?? null),
    chain_version: String(e.chain_version),
    source_type: e.source?.type ?? null,
    source_token_id: neutralise(e.source?.token_id ?? null),
    source_user_id: neutralise(e.source?.user_id ?? null),
  };
  return Object.fromEntries(Object.entries(cells).map(([k, v]) => [k, v ?? ""]));
}

/** The CSV's details cell is jsonb's text form (`{"a": 1}`); compare it as JSON. */
function compactDetails(record: Record<string, string>) {
  return { ...record, details: JSON.stringify(JSON.parse(record.details!)) };
}

async function exportEvents(query: string, token = world.viewer.token) {
  return fetch(`${api.url}${base}/export?${query}`, { headers: { authorization: `Bearer ${token}` } });
}

describe("exporting the audit log", () => {
  test.each([
    ["no filter", ""],
    ["kinds, actor and dates", "event_type=user.*&actor_id=actor-1&start_date=2026-01-01T00:05:00Z&end_date=2026-01-01T00:20:00Z"],
    ["a prefix", "event_type=user.*"],
    ["a target", "target_id=t42&target_type=thing"],
    ["a target type and kind", "target_type=thing&event_type=user.login&end_date=2026-01-01T00:10:00Z"],
  ])("CSV parsed back equals the list (%s)", async (_name, query) => {
    const expected = (await listAll(query)).map(asCsvRecord);
    const res = await exportEvents(`format=csv&${query}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.split("\n")[0]).toBe(CSV_COLUMNS.join(","));
    const records = parse(text, { columns: true, relax_column_count: false }) as Record<string, string>[];
    // Listed before the export: the export's own audit.exported event is in neither.
    expect(records.map(compactDetails)).toEqual(expected);
    if (!query) expect(records.length).toBeGreaterThan(BULK);
    if (query.startsWith("target_id")) expect(records.map((r) => [r.target_type, r.target_id])).toEqual([["thing", "t42"]]);
  });

  test("formula cells are neutralised and awkward cells quoted (RFC 4180)", async () => {
    const text = await (await exportEvents("format=csv&start_date=2026-02-01&end_date=2026-02-02")).text();
    const [, tabbed, evil] = parse(text) as string[][];
    const row = (cells: string[]) => Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, cells[i]]));
    expect(row(evil!)).toMatchObject({
      actor_id: "'@evil",
      actor_email: '\'=HYPERLINK("http://x")',
      user_agent: 'agent "quoted", with comma\nand newline',
      target_type: "'+cmd",
      target_id: "'-2+3",
      target_name: "'=SUM(A1)",
    });
    expect(JSON.parse(row(evil!).details!)).toEqual({ note: "=1+1", tab: "\tx" });
    expect(row(tabbed!)).toMatchObject({ actor_id: "'\tTabbed", actor_email: "'\rcr@example.com" });
    expect(text).toContain('"agent ""quoted"", with comma\nand newline"');
  });

  test("JSON is one valid array equal to the list, with download headers", async () => {
    const query = "event_type=user.login,sso_provider.updated&actor_id=actor-2";
    const expected = await listAll(query);
    const res = await exportEvents(query);
    expect(res.headers.get("content-type")).toBe("application/json");
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="audit-acme-corp-ltd-${today}.json"`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(JSON.parse(await res.text())).toEqual(expected);
    const csv = await exportEvents(`format=csv&${query}`);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe(`attachment; filename="audit-acme-corp-ltd-${today}.csv"`);
    await csv.text();
  });

  test("an empty result is an empty array / a header row", async () => {
    expect(await (await exportEvents("event_type=nothing.here")).json()).toEqual([]);
    expect(await (await exportEvents("format=csv&actor_id=nobody")).text()).toBe(`${CSV_COLUMNS.join(",")}\n`);
  });

  test("each export writes audit.exported with its filters, never inside itself", async () => {
    const t = await tenantWithMembers();
    const { sql } = await database();
    await emitEvent(sql, { id: "x", email: null, ip: null, userAgent: null }, { type: "user.login", tenantId: t.tenant.id });
    const url = `${api.url}/api/v1/tenants/${t.tenant.id}/audit/export?format=json&event_type=audit.*,user.login&start_date=2026-01-01`;
    const run = async () =>
      (await fetch(url, { headers: { authorization: `Bearer ${t.admin.token}`, "user-agent": "export-test" } })).json();
    const first = await run();
    expect(first.map((e: Event) => e.event_type)).toEqual(["user.login"]);
    const second = await run();
    expect(second.map((e: Event) => e.event_type)).toEqual(["audit.exported", "user.login"]);
    expect(second[0]).toMatchObject({
      actor: { id: t.admin.user.id, email: t.admin.user.email },
      metadata: { ip_address: "127.0.0.1", user_agent: "export-test" },
      target: { type: "tenant", id: t.tenant.id },
      details: { format: "json", filters: { event_type: "audit.*,user.login", start_date: "2026-01-01" }, exported_through_sequence: 1 },
    });
  });

  test.each([
    ["format", "format=xml"],
    ["event_type", "event_type=Bad.Kind"],
    ["start_date", "start_date=2026-01-02&end_date=2026-01-01"],
    ["end_date", "end_date=soon"],
    ["actor_id", "actor_id="],
  ])("bad %s is a 400 naming it", async (param, query) => {
    const res = await exportEvents(query);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect((await res.json()).errors.map((e: { path: string }) => e.path)).toContain(param);
  });
});

describe("who may export", () => {
  test("viewer, support and operator may; another tenant's admin or scoped token gets 404; no token 401", async () => {
    const support = await createUser({ platformRole: "support" });
    const other = await tenantWithMembers();
    const dual = await createUser();
    const prisma = (await database()).prisma;
    await prisma.membership.create({ data: { tenantId: world.tenant.id, userId: dual.id, role: "admin" } });
    expect((await exportEvents("event_type=user.created&actor_id=actor-0", await createToken(support.id))).status).toBe(200);
    expect((await exportEvents("actor_id=x", world.admin.token)).status).toBe(200);
    expect((await exportEvents("actor_id=x", await createToken(world.admin.user.id, { readOnly: true }))).status).toBe(200);
    for (const token of [other.admin.token, await createToken(dual.id, { tenantId: other.tenant.id })]) {
      const res = await exportEvents("format=csv", token);
      expect(res.status).toBe(404);
      const text = await res.text();
      expect(text).not.toContain(world.tenant.id);
      expect(text).not.toContain("Acme");
    }
    const anonymous = await fetch(`${api.url}${base}/export`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await exportEvents("", "cp_not-a-real-token-at-all-anywhere")).status).toBe(401);
  });

  test("the console route serves the same export to a signed-in session", async () => {
    const viewer = world.viewer.user;
    const jwt = await encode({
      token: { sub: viewer.id, email: viewer.email, sid: await recordSession(viewer.id) },
      secret: secrets().nextauthSecret,
    });
    const call = (tenantId: string, cookie?: string) =>
      consoleExport.GET(
        new Request(`http://localhost/api/console/tenants/${tenantId}/audit/export?format=csv&event_type=user.created&actor_id=actor-3`, {
          headers: cookie ? { cookie } : {},
        }),
        { params: Promise.resolve({ tenantId }) },
      );
    const res = await call(world.tenant.id, `next-auth.session-token=${jwt}`);
    expect(res.status).toBe(200);
    const records = parse(await res.text(), { columns: true }) as Record<string, string>[];
    expect(records.map(compactDetails)).toEqual((await listAll("event_type=user.created&actor_id=actor-3")).map(asCsvRecord));
    expect((await call(world.tenant.id)).status).toBe(401);
    const other = await tenantWithMembers();
    expect((await call(other.tenant.id, `next-auth.session-token=${jwt}`)).status).toBe(404);
  });
});

test("the OpenAPI document describes the export", async () => {
  const op = operationAt(await fetchOpenApiDocument(api.url), "GET", "/tenants/{tenant_id}/audit/export");
  expect(op.parameters.map((p) => p.name)).toEqual([
    "tenant_id",
    "format",
    "event_type",
    "start_date",
    "end_date",
    "actor_id",
    "actor_email",
    "target_id",
    "target_type",
  ]);
  expect(Object.keys(op.responses["200"]?.content ?? {})).toEqual(["application/json", "text/csv"]);
  expect(op.responses["404"]).toEqual({ $ref: "#/components/responses/Problem404" });
});

test("without COPY (the embedded database), the export reads a batch only when the client has read the previous one", async () => {
  const req = new Request(`${api.url}${base}/export?format=csv`, { headers: { authorization: `Bearer ${world.viewer.token}` } });
  const ctx = await createRestContext(req, "backpressure");
  let batches = 0;
  const sql: SqlRunner = {
    ...ctx.db.sql,
    query: (text, params) => {
      if (/FROM audit_events e/.test(text)) batches++;
      return ctx.db.sql.query(text, params);
    },
  };
  const res = await exportAudit(req, world.tenant.id, async () => ({ ...ctx, db: { ...ctx.db, sql, copyOut: undefined } }), "backpressure");
  expect(res.status).toBe(200);
  batches = 0;
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = decoder.decode((await reader.read()).value);
  expect(text).toBe(`${CSV_COLUMNS.join(",")}\n`);
  text += decoder.decode((await reader.read()).value);
  await new Promise((resolve) => setTimeout(resolve, 200));
  // One batch read and at most one more fetched ahead, of the many the rows need.
  expect(batches).toBeLessThanOrEqual(2);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
  }
  // The first batch was asked for with the response (before the count was reset); a batch is
  // fetched until one comes back short, so floor(rows / size) more.
  expect(batches).toBe(Math.floor((BULK + 2) / EXPORT_BATCH));
  expect(parse(text, { columns: true }).length).toBeGreaterThan(BULK);
  // Cell for cell what the COPY path writes (formula guard and quoting included).
  const notExports = (rows: Record<string, string>[]) => rows.filter((r) => r.event_type !== "audit.exported");
  const viaCopy = parse(await (await exportEvents("format=csv")).text(), { columns: true }) as Record<string, string>[];
  expect(notExports(parse(text, { columns: true }))).toEqual(notExports(viaCopy));
});

test("with COPY, a client that stops reading holds the query back, and one that leaves frees the connection", async () => {
  // ~80 MB of CSV: far more than the socket buffers between Postgres, the app and the client hold.
  const big = await tenantWithMembers();
  await (
    await database()
  ).sql.query(
    `INSERT INTO audit_events (tenant_id, event_type, actor_id, user_agent, details)
     SELECT $1::uuid, 'bulk.row', 'actor', repeat(md5(g::text), 125), jsonb_build_object('g', g) FROM generate_series(1, 20000) g`,
    [big.tenant.id],
  );
  const raw = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await raw.connect();
  const controller = new AbortController();
  try {
    const copying = async () =>
      (
        await raw.query<{ wait_event: string | null }>(
          `SELECT wait_event FROM pg_stat_activity WHERE query LIKE 'COPY (SELECT e.id%' AND state = 'active'`,
        )
      ).rows;
    const res = await fetch(`${api.url}/api/v1/tenants/${big.tenant.id}/audit/export?format=csv`, {
      headers: { authorization: `Bearer ${big.viewer.token}` },
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    // The client reads no more: the COPY stays running, blocked on writing to the app, which
    // holds no more than its buffers (the rows do not pile up in memory).
    await expect.poll(copying, { timeout: 15_000 }).toEqual([{ wait_event: "ClientWrite" }]);
    controller.abort();
    await reader.cancel().catch(() => undefined);
    await expect.poll(copying, { timeout: 10_000 }).toEqual([]);
    // The pool still serves, and a whole export still works.
    const again = await exportEvents("format=csv");
    expect(parse(await again.text(), { columns: true }).length).toBeGreaterThan(BULK);
  } finally {
    controller.abort();
    await raw.end();
  }
});
