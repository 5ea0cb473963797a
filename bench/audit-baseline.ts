/**
 * The audit benchmark's baseline: a bare node:http server answering GET
 * /api/v1/tenants/{tenant_id}/audit with the SAME SQL as the app — it calls the app's own SQL
 * builders (server/audit/query.ts: chain head, filter expansion, count, the UNION ALL keyset
 * page, prepared as the app prepares them; the actors in words, server/audit/actors.ts) over a
 * plain pg Pool of the app's size — and nothing else: no framework, no validation
 * library, no REST edge. The app's numbers are read as a ratio to it.
 *
 * Run by bench/audit.ts as its own process: BASELINE_DATABASE_URL, BASELINE_PORT,
 * BASELINE_POOL_SIZE (default 10).
 */
import { createHash } from "node:crypto";
import http from "node:http";
import pg from "pg";
import { GENERIC_PLANS, pgQuery, type QueryOptions, type SqlRunner } from "../server/db/sql.ts";
import { decodeCursor, keysetPage } from "../server/db/keyset.ts";
import { chainHead, countEvents, findEvents, presentEvent, resolveFilter } from "../server/audit/query.ts";
import { withActorNames } from "../server/audit/actors.ts";
import type { AuditEventRow } from "../server/events/types.ts";

const databaseUrl = process.env.BASELINE_DATABASE_URL;
const port = Number(process.env.BASELINE_PORT ?? "0");
if (!databaseUrl || !port) {
  console.error("audit baseline: set BASELINE_DATABASE_URL and BASELINE_PORT");
  process.exit(2);
}
const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.BASELINE_POOL_SIZE ?? "10") });
pool.on("error", (error) => console.error("audit baseline pool error:", error.message));

// As the app's database (server/db/client.ts): pages prepared "generic" run on connections that keep generic plans.
const genericPool = new pg.Pool({ connectionString: databaseUrl, max: 5, options: GENERIC_PLANS });
genericPool.on("error", (error) => console.error("audit baseline pool error:", error.message));

/** The least a SqlRunner can be: the app's SQL builders only call `query`. */
const sql = {
  query: async (text: string, params?: unknown[], options?: QueryOptions) =>
    (await (options?.prepare === "generic" ? genericPool : pool).query(pgQuery(text, params, options))).rows,
} as unknown as SqlRunner;

async function authenticate(req: http.IncomingMessage): Promise<boolean> {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "")?.[1];
  if (!bearer) return false;
  const { rows } = await pool.query<{ revoked_at: Date | null; expires_at: Date | null }>(
    `SELECT t.revoked_at, t.expires_at, u.platform_role FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1`,
    [createHash("sha256").update(bearer).digest("hex")],
  );
  const row = rows[0];
  return Boolean(row && !row.revoked_at && (!row.expires_at || row.expires_at > new Date()));
}

async function listAudit(url: URL, tenantId: string) {
  const q = url.searchParams;
  const pageSize = Math.min(Math.max(1, Number(q.get("page_size") ?? "20") || 20), 100);
  const cursorParam = q.get("cursor");
  const request = {
    page: Math.max(1, Number(q.get("page") ?? "1") || 1),
    pageSize,
    cursor: cursorParam ? decodeCursor(cursorParam) : undefined,
  };
  const head = await chainHead(sql, tenantId);
  const filter = resolveFilter(
    tenantId,
    {
      event_type: q.get("event_type") ?? undefined,
      start_date: q.get("start_date") ?? undefined,
      end_date: q.get("end_date") ?? undefined,
      actor_id: q.get("actor_id") ?? undefined,
    },
    head,
  );
  const result = await keysetPage<AuditEventRow>(request, {
    key: (row) => ({ at: new Date(row.timestamp), id: row.id }),
    count: () => countEvents(sql, filter, head),
    find: (args) => findEvents(sql, filter, args),
  });
  const link = (key: string, value: string | null) => {
    if (!value) return null;
    const next = new URL(url);
    next.searchParams.set(key, value);
    if (key === "cursor") next.searchParams.delete("page");
    return next.toString();
  };
  const cursorStyle = Boolean(request.cursor);
  return {
    // The actors in words, as the app's list reads them (one lookup per page).
    results: await withActorNames(sql, result.items, result.items.map(presentEvent)),
    count: result.count,
    next: result.hasNext ? (cursorStyle ? link("cursor", result.nextCursor) : link("page", String(request.page + 1))) : null,
    previous: result.hasPrev ? (cursorStyle ? link("cursor", result.prevCursor) : link("page", String(request.page - 1))) : null,
    next_cursor: result.nextCursor,
    previous_cursor: result.prevCursor,
  };
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
  const send = (status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  };
  try {
    if (url.pathname === "/healthz") return send(200, { ok: true });
    const match = /^\/api\/v1\/tenants\/([0-9a-f-]{36})\/audit$/.exec(url.pathname);
    if (req.method !== "GET" || !match) return send(404, { error: "not found" });
    if (!(await authenticate(req))) return send(401, { error: "unauthenticated" });
    send(200, await listAudit(url, match[1]!));
  } catch (error) {
    send(500, { error: (error as Error).message });
  }
});
server.listen(port, "127.0.0.1", () => console.log(`audit baseline listening on ${port}`));
