/**
 * The baseline the app is measured against: a bare node:http server answering the same two
 * requests with the same SQL through a pg Pool of the app's size, and nothing else — no
 * framework, no ORM, no validation library. It is what the work costs at the least on this
 * machine; the app's numbers are read as a ratio to it.
 *
 *   GET  /api/v1/tenants   token lookup, then count(*) and the page query in parallel, envelope out
 *                          (offset pages and the app's keyset cursors)
 *   POST /api/v1/tenants   Idempotency-Key claim, token lookup, one transaction inserting the
 *                          tenant and its audit event, the update storing the response; 201
 *
 * Run by bench/run.ts as its own process: BASELINE_DATABASE_URL, BASELINE_PORT,
 * BASELINE_POOL_SIZE (default 10, as the app's pool).
 */
import { createHash, randomUUID } from "node:crypto";
import http from "node:http";
import pg from "pg";

const databaseUrl = process.env.BASELINE_DATABASE_URL;
const port = Number(process.env.BASELINE_PORT ?? "0");
const poolSize = Number(process.env.BASELINE_POOL_SIZE ?? "10");
if (!databaseUrl || !port) {
  console.error("baseline: set BASELINE_DATABASE_URL and BASELINE_PORT");
  process.exit(2);
}

const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
pool.on("error", (error) => console.error("baseline pool error:", error.message));

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface Principal {
  userId: string;
  email: string;
  platformRole: string | null;
}

async function authenticate(req: http.IncomingMessage): Promise<{ principal: Principal; bearer: string }> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  if (!match) throw new HttpError(401, "missing bearer token");
  const bearer = match[1]!;
  const { rows } = await pool.query<{
    user_id: string;
    email: string;
    platform_role: string | null;
    revoked_at: Date | null;
    expires_at: Date | null;
  }>(
    `SELECT t.id, t.user_id, t.tenant_id, t.read_only, t.expires_at, t.revoked_at, u.email, u.platform_role
     FROM api_tokens t JOIN users u ON u.id = t.user_id
     WHERE t.token_hash = $1`,
    [sha256(bearer)],
  );
  const row = rows[0];
  if (!row || row.revoked_at || (row.expires_at && row.expires_at <= new Date())) {
    throw new HttpError(401, "invalid token");
  }
  return { principal: { userId: row.user_id, email: row.email, platformRole: row.platform_role }, bearer };
}

interface TenantRow {
  id: string;
  name: string;
  created_at: Date;
}

const present = (row: TenantRow) => ({ id: row.id, name: row.name, created_at: row.created_at.toISOString() });

/** The app's cursor format: base64url of JSON ["n"|"p", ISO timestamp, id]. */
const encodeCursor = (direction: "n" | "p", row: TenantRow) =>
  Buffer.from(JSON.stringify([direction, row.created_at.toISOString(), row.id])).toString("base64url");

function decodeCursor(value: string): { forward: boolean; at: Date; id: string } {
  try {
    const [d, at, id] = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as [string, string, string];
    const date = new Date(at);
    if ((d === "n" || d === "p") && !Number.isNaN(date.getTime()) && typeof id === "string") {
      return { forward: d === "n", at: date, id };
    }
  } catch {
    // fall through
  }
  throw new HttpError(400, "bad cursor");
}

const COLUMNS = "id, name, created_at";

async function listTenants(req: http.IncomingMessage, url: URL) {
  await authenticate(req);
  const page = Math.max(1, Number(url.searchParams.get("page") ?? "1") || 1);
  const pageSize = Math.min(Math.max(1, Number(url.searchParams.get("page_size") ?? "20") || 20), 100);
  const cursorParam = url.searchParams.get("cursor");
  const link = (change: Record<string, string>) => {
    const next = new URL(url);
    for (const [key, value] of Object.entries(change)) next.searchParams.set(key, value);
    if ("cursor" in change) next.searchParams.delete("page");
    return next.toString();
  };
  const count = pool.query<{ count: string }>("SELECT count(*) FROM tenants");

  if (!cursorParam) {
    const skip = (page - 1) * pageSize;
    const [{ rows }, counted] = await Promise.all([
      pool.query<TenantRow>(`SELECT ${COLUMNS} FROM tenants ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`, [pageSize, skip]),
      count,
    ]);
    const total = Number(counted.rows[0]!.count);
    const hasNext = skip + rows.length < total;
    const hasPrev = page > 1;
    return {
      results: rows.map(present),
      count: total,
      next: hasNext ? link({ page: String(page + 1) }) : null,
      previous: hasPrev ? link({ page: String(page - 1) }) : null,
      next_cursor: hasNext && rows.length ? encodeCursor("n", rows.at(-1)!) : null,
      previous_cursor: hasPrev && rows.length ? encodeCursor("p", rows[0]!) : null,
    };
  }

  // Keyset page: the same predicate shape the app sends (created_at beyond, or equal and id beyond).
  const cursor = decodeCursor(cursorParam);
  const [op, order] = cursor.forward ? ["<", "DESC"] : [">", "ASC"];
  const [{ rows: fetched }, counted] = await Promise.all([
    pool.query<TenantRow>(
      `SELECT ${COLUMNS} FROM tenants WHERE created_at ${op} $1 OR (created_at = $1 AND id ${op} $2)
       ORDER BY created_at ${order}, id ${order} LIMIT $3`,
      [cursor.at, cursor.id, pageSize + 1],
    ),
    count,
  ]);
  const more = fetched.length > pageSize;
  const items = cursor.forward ? fetched.slice(0, pageSize) : fetched.slice(0, pageSize).reverse();
  const hasNext = cursor.forward ? more : items.length > 0;
  const hasPrev = cursor.forward ? items.length > 0 : more;
  const nextCursor = hasNext && items.length ? encodeCursor("n", items.at(-1)!) : null;
  const prevCursor = hasPrev && items.length ? encodeCursor("p", items[0]!) : null;
  return {
    results: items.map(present),
    count: Number(counted.rows[0]!.count),
    next: nextCursor && link({ cursor: nextCursor }),
    previous: prevCursor && link({ cursor: prevCursor }),
    next_cursor: nextCursor,
    previous_cursor: prevCursor,
  };
}

/** Same JSON with other spacing or key order gets the same fingerprint (as the app). */
function canonical(body: string): string {
  const sort = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sort)
      : value && typeof value === "object"
        ? Object.fromEntries(
            Object.entries(value as object)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([k, v]) => [k, sort(v)]),
          )
        : value;
  try {
    return JSON.stringify(sort(JSON.parse(body)));
  } catch {
    return body;
  }
}

const CLAIM_SQL = `INSERT INTO idempotency_keys (scope, key, fingerprint, state, locked_until, expires_at)
  VALUES ($1, $2, $3, 'in_flight', now() + make_interval(secs => $4), now() + make_interval(secs => $5))
  ON CONFLICT (scope, key) DO UPDATE SET
    fingerprint = EXCLUDED.fingerprint, state = 'in_flight', locked_until = EXCLUDED.locked_until,
    expires_at = EXCLUDED.expires_at, created_at = now(),
    response_status = NULL, response_headers = NULL, response_body = NULL
  WHERE idempotency_keys.expires_at <= now()
     OR (idempotency_keys.state = 'in_flight' AND idempotency_keys.locked_until <= now()
         AND idempotency_keys.fingerprint = EXCLUDED.fingerprint)
  RETURNING id`;

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function createTenant(req: http.IncomingMessage, raw: string, origin: string): Promise<Reply> {
  if (!/^application\/(.+\+)?json\b/i.test(req.headers["content-type"] ?? "")) throw new HttpError(415, "send JSON");
  let name: unknown;
  try {
    name = (JSON.parse(raw) as { name?: unknown }).name;
  } catch {
    throw new HttpError(400, "invalid JSON");
  }
  if (typeof name !== "string" || name.trim().length < 1 || name.trim().length > 100) {
    throw new HttpError(400, "name must be 1 to 100 characters");
  }
  name = name.trim();

  const key = req.headers["idempotency-key"];
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "")?.[1];
  let claimId: string | null = null;
  if (typeof key === "string" && bearer) {
    const { rows } = await pool.query<{ id: string }>(CLAIM_SQL, [
      sha256(bearer),
      key,
      sha256(`POST /tenants\n${canonical(raw)}`),
      60,
      86_400,
    ]);
    if (!rows[0]) {
      const { rows: stored } = await pool.query<{ state: string; response_status: number; response_body: string }>(
        "SELECT state, response_status, response_body FROM idempotency_keys WHERE scope = $1 AND key = $2",
        [sha256(bearer), key],
      );
      if (stored[0]?.state !== "completed") throw new HttpError(409, "key in use");
      return { status: stored[0].response_status, headers: { "idempotent-replayed": "true" }, body: stored[0].response_body };
    }
    claimId = rows[0].id;
  }

  try {
    const { principal } = await authenticate(req);
    if (principal.platformRole !== "operator") throw new HttpError(403, "operators only");
    const client = await pool.connect();
    let tenant: TenantRow;
    try {
      await client.query("BEGIN");
      tenant = (await client.query<TenantRow>(`INSERT INTO tenants (name) VALUES ($1) RETURNING ${COLUMNS}`, [name])).rows[0]!;
      await client.query(
        `INSERT INTO audit_events (tenant_id, event_type, actor_id, actor_email, ip_address, user_agent, target_type, target_id, details)
         VALUES ($1, 'tenant.created', $2, $3, $4, $5, 'tenant', $6, $7)`,
        [
          tenant.id,
          principal.userId,
          principal.email,
          req.socket.remoteAddress ?? null,
          req.headers["user-agent"]?.slice(0, 512) ?? null,
          tenant.id,
          JSON.stringify({ name: tenant.name }),
        ],
      );
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    const location = `${origin}/api/v1/tenants/${tenant.id}`;
    const body = JSON.stringify(present(tenant));
    if (claimId) {
      await pool.query(
        `UPDATE idempotency_keys SET state = 'completed', response_status = $2, response_headers = $3::jsonb, response_body = $4
         WHERE id = $1`,
        [claimId, 201, JSON.stringify({ "content-type": "application/json", location }), body],
      );
    }
    return { status: 201, headers: { location }, body };
  } catch (error) {
    if (claimId) await pool.query("DELETE FROM idempotency_keys WHERE id = $1 AND state = 'in_flight'", [claimId]);
    throw error;
  }
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: http.ServerResponse, reply: Reply) {
  res.writeHead(reply.status, {
    "content-type": "application/json",
    "x-request-id": randomUUID(),
    ...reply.headers,
  });
  res.end(reply.body);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  const handle = async (): Promise<Reply> => {
    if (url.pathname === "/healthz") return { status: 200, headers: {}, body: '{"ok":true}' };
    if (url.pathname !== "/api/v1/tenants") throw new HttpError(404, "not found");
    if (req.method === "GET") return { status: 200, headers: {}, body: JSON.stringify(await listTenants(req, url)) };
    if (req.method === "POST") return createTenant(req, await readBody(req), url.origin);
    throw new HttpError(405, "method not allowed");
  };
  handle().then(
    (reply) => send(res, reply),
    (error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      if (status === 500) console.error("baseline error:", error);
      send(res, { status, headers: {}, body: JSON.stringify({ detail: (error as Error).message }) });
    },
  );
});

server.listen(port, "127.0.0.1", () => console.log(`baseline listening on ${port}`));

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close();
    server.closeAllConnections();
    void pool.end().finally(() => process.exit(0));
  });
}
